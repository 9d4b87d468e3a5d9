// A multipart form with files, read into memory: the emulator keeps its assets in memory, and the student's submit
// form is its only sender. Limits keep one request from filling the memory; past one, a sentence and a status.
import busboy from 'busboy';
import type { Request } from 'express';

export const MAX_FILES = 5;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_TEXT_BYTES = 1024 * 1024;

export interface UploadedForm {
  fields: Record<string, string>;
  files: Array<{ content: Buffer; filename: string; contentType: string }>;
}

export class FormRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'FormRefused';
  }
}

export function readUploadForm(req: Request): Promise<UploadedForm> {
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? ''))
    return Promise.reject(new FormRefused(400, 'The form must be sent as multipart/form-data.'));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { files: MAX_FILES, fileSize: MAX_FILE_BYTES, fields: 10, fieldSize: MAX_TEXT_BYTES },
    });
  } catch {
    return Promise.reject(new FormRefused(400, 'The form has no multipart boundary.'));
  }
  const form: UploadedForm = { fields: {}, files: [] };
  return new Promise((resolve, reject) => {
    const fail = (error: FormRefused) => {
      req.unpipe(parser);
      req.resume();
      reject(error);
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated)
        return fail(new FormRefused(413, `The ${name} field is longer than ${MAX_TEXT_BYTES} bytes.`));
      form.fields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () =>
        fail(new FormRefused(413, `${info.filename} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB.`)),
      );
      stream.on('end', () => {
        // A file input left empty still sends a part, without a name.
        if (info.filename)
          form.files.push({
            content: Buffer.concat(chunks),
            filename: info.filename,
            contentType: info.mimeType || 'application/octet-stream',
          });
      });
    });
    parser.on('filesLimit', () => fail(new FormRefused(413, `A submission takes at most ${MAX_FILES} files.`)));
    parser.on('error', () => fail(new FormRefused(400, 'The form could not be read.')));
    parser.on('close', () => resolve(form));
    req.pipe(parser);
  });
}
