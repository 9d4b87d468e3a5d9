// Server-rendered pages from views/*.eta. Eta escapes every `<%= %>` output; `<%~ %>` (raw) is for markup we build.
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';
import { Eta } from 'eta';

const viewsDir = fileURLToPath(new URL('../../views', import.meta.url));

const eta = new Eta({ views: viewsDir, cache: true, autoEscape: true });

export function render(view: string, data: Record<string, unknown>): string {
  return eta.render(view, data);
}

/** A page with one sentence for the person: a refusal, an error, or a notice. */
export function sendMessage(res: Response, status: number, title: string, message: string, tone: 'error' | 'info' = 'error'): void {
  res.status(status).send(render('message', { title, message, tone }));
}
