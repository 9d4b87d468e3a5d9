// A file's real type, from its first bytes (its magic number), never from its name or the browser's word.
import type { FileType } from '../assignments/settings.js';

/** How many leading bytes the detection needs. */
export const SNIFF_BYTES = 8192;

const startsWith = (head: Buffer, signature: number[] | string, offset = 0) => {
  const bytes = typeof signature === 'string' ? Buffer.from(signature, 'latin1') : Buffer.from(signature);
  return head.length >= offset + bytes.length && head.subarray(offset, offset + bytes.length).equals(bytes);
};

function looksLikeText(head: Buffer): boolean {
  if (head.length === 0 || head.includes(0)) return false;
  // A cut in the middle of a multi-byte character at the end of the sample is not an error.
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(head);
  const replacements = decoded.split('\uFFFD').length - 1;
  const controls = (decoded.match(/[\u0001-\u0008\u000E-\u001F\u007F]/g) ?? []).length;
  return replacements <= 1 && controls / decoded.length < 0.01;
}

/** The type of a file whose first bytes are `head`, among those the tool accepts; null for anything else. */
export function detectFileType(head: Buffer): FileType | null {
  if (startsWith(head, '%PDF-')) return 'pdf';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc'; // OLE2 compound file (Word 97-2003)
  if (startsWith(head, '{\\rtf')) return 'rtf';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    // A ZIP container: OpenDocument stores its media type uncompressed as the first entry; Word's has word/ parts.
    const text = head.toString('latin1');
    if (startsWith(head, 'mimetype', 30) && text.includes('application/vnd.oasis.opendocument.text')) return 'odt';
    if (text.includes('[Content_Types].xml') || text.includes('word/')) return 'docx';
    return null;
  }
  if (!looksLikeText(head)) return null;
  const start = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 200)
    .toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'html';
  return 'txt';
}
