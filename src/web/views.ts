// Server-rendered pages from views/*.eta. Eta escapes every `<%= %>` output; `<%~ %>` (raw) is for markup we build.
import { fileURLToPath } from 'node:url';
import type { Request, Response } from 'express';
import { Eta } from 'eta';

const viewsDir = fileURLToPath(new URL('../../views', import.meta.url));

const eta = new Eta({ views: viewsDir, cache: true, autoEscape: true });

export function render(view: string, data: Record<string, unknown>): string {
  return eta.render(view, data);
}

/**
 * Whether the client reads JSON rather than a page: it prefers application/json over HTML in Accept, or it is a
 * script's request (fetch or XMLHttpRequest: `Sec-Fetch-Dest: empty`, or jQuery-style `X-Requested-With`). A
 * browser navigating or a form posting into the LMS frame gets pages.
 */
export function wantsJson(req: Request): boolean {
  if (req.headers['sec-fetch-dest'] === 'empty') return true;
  if (String(req.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest') return true;
  return req.accepts(['html', 'json']) === 'json';
}

/** One sentence for the person: a refusal, an error, or a notice; a page, or `{ error }` to a JSON client. */
export function sendMessage(res: Response, status: number, title: string, message: string, tone: 'error' | 'info' = 'error'): void {
  if (wantsJson(res.req)) {
    res.status(status).json(tone === 'error' ? { error: message } : { message });
    return;
  }
  res.status(status).send(render('message', { title, message, tone }));
}
