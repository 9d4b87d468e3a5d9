// Which of the service's formats a file is (checker-facts.md: PDF, DOC, DOCX, DOTX, TXT, HTML/HTM, ODT, RTF ...),
// judged by its first bytes and its name together. A binary file of no known format, or a name of a format the
// service refuses, is null (the upload is 422). A text file named like a binary format (a ".pdf" that is plain
// text) is taken as what its name claims, so its analysis fails the way the real service's does (`doc:error`).
import { extname } from 'node:path';

export type FileType = 'pdf' | 'docx' | 'odt' | 'doc' | 'rtf' | 'txt' | 'html';

const BY_EXTENSION: Record<string, FileType> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.dotx': 'docx',
  '.odt': 'odt',
  '.doc': 'doc',
  '.rtf': 'rtf',
  '.txt': 'txt',
  '.text': 'txt',
  '.html': 'html',
  '.htm': 'html',
};
const BINARY_FORMATS = new Set<FileType>(['pdf', 'docx', 'odt', 'doc']);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** The format the first bytes show, 'text' for readable text of no particular format, null for other binary. */
function byContent(head: Buffer): FileType | 'text' | null {
  const start = head.toString('latin1', 0, 1024);
  if (start.startsWith('%PDF-')) return 'pdf';
  if (head.subarray(0, 8).equals(OLE2)) return 'doc';
  if (start.startsWith('{\\rtf')) return 'rtf';
  if (start.startsWith('PK\u0003\u0004')) {
    // The zip's first entries name the format: ODT stores its mimetype first, Word its [Content_Types].xml or word/.
    if (start.includes('application/vnd.oasis.opendocument.text')) return 'odt';
    return /\[Content_Types\]\.xml|word\//.test(start) ? 'docx' : null;
  }
  if (head.includes(0)) return null;
  const decoded = head.toString('utf8');
  const replaced = (decoded.match(/\uFFFD/g) ?? []).length;
  const controls = (decoded.match(/[\u0001-\u0008\u000E-\u001F\u007F]/g) ?? []).length;
  // A stray bad byte at the cut-off end of the head is fine; more means binary (an image, an executable).
  if (replaced > 1 || controls / Math.max(1, decoded.length) >= 0.01) return null;
  return /^\s*(<!doctype html|<html)/i.test(decoded.replace(/^\uFEFF/, '')) ? 'html' : 'text';
}

export function fileTypeOf(fileName: string, head: Buffer): FileType | null {
  const ext = extname(fileName).toLowerCase();
  const named = ext === '' ? undefined : BY_EXTENSION[ext];
  if (ext !== '' && !named) return null;
  if (head.length === 0) return null;
  const seen = byContent(head);
  if (seen === null) return null;
  if (seen === 'text') return named ?? 'txt';
  // A real container wins over its name (a .doc that is really DOCX is common); text named html stays html.
  if (named && BINARY_FORMATS.has(seen) === false && BINARY_FORMATS.has(named)) return named;
  return seen;
}
