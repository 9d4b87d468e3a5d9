// The HTML entities the emulator's pages write, and the agent's reading of them back out of a page's attributes.

export function escapeHtml(value: unknown): string {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function decodeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Where the emulator's clock is served (clock.ts). */
export const CLOCK_PATH = '/clock.js';

/**
 * A page of the emulator (its home, its Asset Processor screens), with their stylesheet and clock (files: the tool's
 * CSP allows only 'self' styles and scripts; the clock by its path, so that it loads whichever host name the page
 * was opened by).
 */
export function htmlPage(baseUrl: string, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(baseUrl)}/asset-processor.css"><script src="${escapeHtml(new URL(baseUrl).pathname.replace(/\/$/, ''))}${CLOCK_PATH}" defer></script></head>
<body>${body}</body></html>`;
}

/** A page that says one thing: what was done, or why not. */
export const messagePage = (baseUrl: string, title: string, text: string, refused: boolean) =>
  htmlPage(
    baseUrl,
    title,
    `<h1>${escapeHtml(title)}</h1><p${refused ? ' class="refused"' : ''}>${escapeHtml(text)}</p>`,
  );
