// The text of an uploaded paper, for the sandbox's analysis: TXT and HTML as they are, DOCX and ODT from their
// XML, PDF through pdf.js. A file whose text cannot be read is "unreadable" (the real service's doc:error).
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';

export type PaperType = 'pdf' | 'docx' | 'odt' | 'doc' | 'rtf' | 'txt' | 'html';

/** The type from the first bytes; null for anything the service does not take. */
export function sniff(head: Buffer): PaperType | null {
  const text = head.toString('latin1');
  if (text.startsWith('%PDF-')) return 'pdf';
  if (head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return 'doc';
  if (text.startsWith('{\\rtf')) return 'rtf';
  if (text.startsWith('PK\u0003\u0004')) {
    if (text.includes('application/vnd.oasis.opendocument.text')) return 'odt';
    return text.includes('word/') || text.includes('[Content_Types].xml') ? 'docx' : null;
  }
  if (head.length === 0 || head.includes(0)) return null;
  const decoded = head.toString('utf8');
  const bad = (decoded.match(/\uFFFD/g) ?? []).length;
  const controls = (decoded.match(/[\u0001-\u0008\u000E-\u001F\u007F]/g) ?? []).length;
  if (bad > 1 || controls / decoded.length >= 0.01) return null; // binary (an executable, an image), not text
  if (/^\s*(<!doctype html|<html)/i.test(decoded.replace(/^\uFEFF/, ''))) return 'html';
  return 'txt';
}

const stripXml = (xml: string) =>
  xml
    .replace(/<\/w:p>|<\/text:p>|<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;|&#39;/g, "'")
    .replace(/&amp;/g, '&');

async function pdfText(data: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  const parts: string[] = [];
  for (let page = 1; page <= document.numPages; page += 1) {
    const content = await (await document.getPage(page)).getTextContent();
    parts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return parts.join('\n');
}

/** The paper's text, or null when it cannot be read. */
export async function extractText(path: string, type: PaperType): Promise<string | null> {
  try {
    const data = await readFile(path);
    switch (type) {
      case 'txt':
        return data.toString('utf8');
      case 'html':
        return stripXml(data.toString('utf8').replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' '));
      case 'rtf':
        return data.toString('latin1').replace(/\\[a-z]+-?\d* ?|[{}]/gi, ' ');
      case 'docx': {
        const files = unzipSync(new Uint8Array(data), { filter: (file) => file.name === 'word/document.xml' });
        const xml = files['word/document.xml'];
        return xml ? stripXml(strFromU8(xml)) : null;
      }
      case 'odt': {
        const files = unzipSync(new Uint8Array(data), { filter: (file) => file.name === 'content.xml' });
        const xml = files['content.xml'];
        return xml ? stripXml(strFromU8(xml)) : null;
      }
      case 'pdf':
        return await pdfText(new Uint8Array(data));
      case 'doc':
        // Word 97 binary: the runs of readable text are enough for a stand-in.
        return (data.toString('latin1').match(/[\x20-\x7e]{4,}/g) ?? []).join(' ');
    }
  } catch {
    return null;
  }
}
