// The text of an uploaded paper, for the analysis: TXT and HTML as they are, DOCX and ODT from their XML, RTF
// without its control words, DOC by its runs of readable characters, PDF through pdf.js. A file whose text
// cannot be read gives null (the service's `doc:error`).
import { open, readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { FileType } from './filetype.js';

// Plain formats are read from their start only, and the text is capped: a 100 MB upload must not take
// gigabytes to compare. Containers (PDF, DOCX, ODT) need the whole file to be opened.
const PLAIN_READ_BYTES = 8 * 1024 * 1024;
const MAX_TEXT_CHARS = 2_000_000;

export interface PaperText {
  text: string;
  /** Pages when the format has them (PDF); otherwise null and the analysis estimates. */
  pages: number | null;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&', nbsp: ' ' };

function stripMarkup(xml: string): string {
  return xml
    .replace(/<\/w:p>|<\/text:p>|<text:line-break\/>|<br\s*\/?>|<\/p>|<\/h\d>|<\/li>|<\/div>/gi, '\n')
    .replace(/<w:tab\/>|<text:tab\/>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, code: string) => {
      if (code.startsWith('#x') || code.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
      if (code.startsWith('#')) return String.fromCodePoint(Number(code.slice(1)));
      return ENTITIES[code.toLowerCase()] ?? entity;
    });
}

async function readStart(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(PLAIN_READ_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, PLAIN_READ_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function zipEntry(data: Buffer, name: string): string | null {
  const files = unzipSync(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), {
    filter: (file) => file.name === name,
  });
  const entry = files[name];
  return entry ? strFromU8(entry) : null;
}

async function pdfText(data: Buffer): Promise<PaperText> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  try {
    const parts: string[] = [];
    let length = 0;
    for (let number = 1; number <= document.numPages && length < MAX_TEXT_CHARS; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(' ');
      parts.push(text);
      length += text.length;
      page.cleanup();
    }
    return { text: parts.join('\n'), pages: document.numPages };
  } finally {
    await document.destroy();
  }
}

async function extract(path: string, type: FileType): Promise<PaperText | null> {
  switch (type) {
    case 'txt':
      return { text: (await readStart(path)).toString('utf8').replace(/^\uFEFF/, ''), pages: null };
    case 'html':
      return {
        text: stripMarkup(
          (await readStart(path)).toString('utf8').replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, ' '),
        ),
        pages: null,
      };
    case 'rtf':
      return {
        text: (await readStart(path))
          .toString('latin1')
          .replace(/\\par[d]?\b/g, '\n')
          .replace(/\\'[0-9a-f]{2}|\\[a-z]+-?\d* ?|[{}]/gi, ' '),
        pages: null,
      };
    case 'doc':
      // Word 97 keeps its text in runs of plain characters among binary tables: enough for a stand-in.
      return {
        text: ((await readStart(path)).toString('latin1').match(/[\x20-\x7e\r\n\t]{6,}/g) ?? []).join(' '),
        pages: null,
      };
    case 'docx': {
      const xml = zipEntry(await readFile(path), 'word/document.xml');
      return xml === null ? null : { text: stripMarkup(xml), pages: null };
    }
    case 'odt': {
      const xml = zipEntry(await readFile(path), 'content.xml');
      return xml === null ? null : { text: stripMarkup(xml), pages: null };
    }
    case 'pdf':
      return pdfText(await readFile(path));
  }
}

/** The paper's text (capped), or null when it cannot be read or holds no words. */
export async function extractText(path: string, type: FileType): Promise<PaperText | null> {
  try {
    const found = await extract(path, type);
    if (!found || !/[\p{L}\p{N}]/u.test(found.text)) return null;
    return { text: found.text.slice(0, MAX_TEXT_CHARS), pages: found.pages };
  } catch {
    return null;
  }
}
