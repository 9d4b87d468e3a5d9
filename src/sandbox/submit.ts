// Submit paper (spec 4.2 and 4.3, `POST /files/myFolder/{id}/singleFile` and `/files/folder/{id}/singleFile`):
// the form fields each family requires, one file of a format the service takes, then the paper exists with its
// results pending and its analysis queued.
import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { accountOf } from './auth.js';
import type { SandboxContext } from './context.js';
import { ApiError } from './errors.js';
import { fileTypeOf } from './filetype.js';
import type { createProcessing } from './processing.js';
import type { Family } from './records.js';
import { receiveUpload } from './upload.js';
import { integerParam, parseBody } from './validation.js';
import type { Views } from './views.js';

const yesNo = z.enum(['YES', 'NO']);
const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);
const common = {
  authorName: text(200),
  title: text(500),
  documentType: text(100),
  plagiarismCheck: yesNo,
  grammarCheck: yesNo,
  guide_email: z.string().max(320).optional(),
  guide_name: z.string().max(200).optional(),
};
const forms = {
  classroom: z.object({ ...common, language: text(100) }),
  pro: z.object({ ...common, language: text(100).optional() }),
} satisfies Record<Family, z.ZodType>;

export function submitPaper(
  ctx: SandboxContext,
  views: Views,
  processing: ReturnType<typeof createProcessing>,
  family: Family,
): RequestHandler {
  return async (req, res) => {
    const account = accountOf(res);
    const folder = ctx.store.folderOf(account, integerParam(req.params.id, 'folder_id'), family);
    const { fields, file } = await receiveUpload(req, res, {
      dir: ctx.config.uploadDir,
      maxBytes: ctx.config.maxUploadBytes,
    });
    try {
      if (!file) throw new ApiError(400, 'Missing required field: file.');
      // An empty form value counts as missing, as the service's form validation treats it.
      const form = parseBody(
        forms[family],
        Object.fromEntries(Object.entries(fields).filter(([, value]) => value.trim() !== '')),
      );
      const fileType = fileTypeOf(file.name, file.head);
      if (!fileType)
        throw new ApiError(
          422,
          `Unsupported file type: ${file.name}. Accepted: PDF, DOC, DOCX, DOTX, ODT, RTF, TXT, HTML.`,
        );
      const paper = ctx.store.addPaper({
        folderId: folder.id,
        ownerId: account.id,
        title: form.title,
        authorName: form.authorName,
        fileName: file.name,
        fileType,
        size: file.size,
        documentType: form.documentType,
        language: form.language ?? 'English',
        grammarCheck: form.grammarCheck === 'YES',
        uploadedAt: new Date(),
        state: 'pending',
        findings: null,
        shingles: new Set(),
        upload: basename(file.path),
        announced: false,
      });
      ctx.stats.uploads += 1;
      processing.schedule(paper, file.path);
      const hold = ctx.faults.current.uploadAnswerDelayMs;
      if (hold) await sleep(hold, undefined, { signal: ctx.timers.signal }).catch(() => undefined);
      const gateway = ctx.faults.current.uploadAnswerStatus;
      if (gateway)
        return void res.status(gateway).json(views.envelope(gateway, 'Gateway error: the upstream answer was lost.'));
      res.json({ ...views.envelope(200, 'File uploaded successfully'), submissions: views.uploaded(paper, folder) });
    } catch (error) {
      if (file) await rm(file.path, { force: true });
      throw error;
    }
  };
}
