// A text entry: what a student typed into the LMS's own editor rather than a file. The LMS serves it as an HTML
// asset without a file name (Canvas: doc/api/document_processor.md); the tool checks its words, as a plain text file.
const BLOCK_END = /<\/(p|div|li|h[1-6]|tr|blockquote|pre|section|article|table|ul|ol)\s*>|<br\s*\/?>/gi;
const HIDDEN = /<(script|style|head|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/**
 * Whether an asset is a text entry: HTML without a file name (Canvas), or HTML named like a web page (Blackboard
 * sends a text entry as the file "Submission_Text.html": BBDN-LTI-Tool-Provider-Node docs/pns.md). An HTML file a
 * student uploaded is checked by its words too, which is what the service would read of it.
 */
export function isTextEntry(asset: { contentType: string | null; filename: string | null }): boolean {
  return (
    /^text\/html\b/i.test(asset.contentType ?? '') && (asset.filename === null || /\.html?$/i.test(asset.filename))
  );
}

function decodeEntity(entity: string, name: string): string {
  if (name.startsWith('#')) {
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  }
  return NAMED[name.toLowerCase()] ?? entity;
}

/** The words of an HTML text entry: paragraphs on their own lines, tags and hidden parts gone, entities decoded. */
export function textOfHtml(html: string): string {
  return html
    .replace(HIDDEN, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(BLOCK_END, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, decodeEntity)
    .replace(/[ \t\u00a0]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
