// Server-rendered pages from views/*.eta. Eta escapes every `<%= %>` output; `<%~ %>` (raw) is for markup we build.
// Every page gets the words of its person's language (i18n/): `it.t(key, params)`, the Intl formats
// (`it.moment(date)`, `it.percent(n)`, ...) and `it.locale` for <html lang>; a page with the session's ltik links
// to others through `it.page(path, query)` (page-address.ts).
import { fileURLToPath } from 'node:url';
import type { Request, RequestHandler, Response } from 'express';
import { Eta } from 'eta';
import type { SubmissionState } from '../db/index.js';
import { lmsOf, type Lms } from '../lti/product-family.js';
import type { Session } from '../lti/session.js';
import { stateWord } from '../submissions/state.js';
import { acceptedLanguages, chooseLanguage, chooseLocale, wordsFor, type Words } from '../i18n/index.js';
import { frameSentence, lmsFamilyOf } from './framing.js';
import { pageAddress } from './page-address.js';

const viewsDir = fileURLToPath(new URL('../../views', import.meta.url));

const eta = new Eta({ views: viewsDir, cache: true, autoEscape: true });

/** Text made safe to put into markup a view writes raw (`<%~ %>`), as a sentence around a <time>. */
const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function render(view: string, data: Record<string, unknown>, words: Words): string {
  // The word for a state, from the states' one table (submissions/state.ts).
  const stateText = (state: SubmissionState | 'not-submitted') => words.t(stateWord(state));
  const page = (path: string, query?: Record<string, string>) => {
    if (typeof data.ltik !== 'string') throw new Error(`The view ${view} links to a page without the session's ltik`);
    return pageAddress(path, data.ltik, query);
  };
  return eta.render(view, { ...words, escape, stateText, page, ...data });
}

/**
 * Where a page is read, which the layout follows (views/layout.eta, public/app.css): inside a frame (the browser
 * says so in Sec-Fetch-Dest), where the LMS shows the assignment's title and the page's own repeats of it are left
 * to screen readers; and the LMS whose type the page takes on, from the product family its platform registered
 * with (Moodle's Boost, Canvas), or null for any other or none known: the tool's own.
 */
export interface PageLook {
  framed: boolean;
  lms: 'moodle' | 'canvas' | null;
}

/** Each LMS's look: its own type where the pages follow it, else the tool's (null). */
const LMS_LOOKS: Record<Lms, PageLook['lms']> = {
  moodle: 'moodle',
  canvas: 'canvas',
  brightspace: null,
  blackboard: null,
  sakai: null,
  schoology: null,
  other: null,
};

export function lookOf(res: Response): PageLook {
  const dest = res.req.headers['sec-fetch-dest'];
  return {
    framed: dest === 'iframe' || dest === 'frame',
    lms: LMS_LOOKS[lmsOf(lmsFamilyOf(res))],
  };
}

/**
 * The words of the person a request comes from: their launch's locale when the launch gave one (the session's, or
 * `launchLocale` for the launch being handled), else their browser's Accept-Language; English when the tool does
 * not have the language. With them, where they read the page (its look).
 */
export function wordsOf(res: Response, launchLocale?: string | null): Words & { look: PageLook } {
  // A page's session's launch, or the launch a launch route has just recorded (launch-route.ts).
  const { session, launch } = res.locals as { session?: Session; launch?: Session['launch'] };
  const locale = launchLocale ?? (session ?? { launch }).launch?.locale ?? null;
  const browser = acceptedLanguages(res.req.headers['accept-language']);
  const language = chooseLanguage(locale !== null ? [locale] : browser);
  // The launch's language with the region it or the browser names: Moodle says "en", the browser "en-GB".
  return { ...wordsFor(chooseLocale(language, [locale, ...browser])), look: lookOf(res) };
}

/**
 * Marks a route machines call (the LMS's notices, the checking service's callback): every answer there, errors from
 * the app's one error handler included, is JSON whatever the request's Accept says.
 */
export const answersJson: RequestHandler = (_req, res, next) => {
  res.locals.answersJson = true;
  next();
};

/**
 * Whether the client reads JSON rather than a page: its route answers only JSON (answersJson), it prefers application/json over HTML in Accept, or it is a
 * script's request (fetch or XMLHttpRequest: `Sec-Fetch-Dest: empty`, or jQuery-style `X-Requested-With`). A
 * browser navigating or a form posting into the LMS frame gets pages.
 */
export function wantsJson(req: Request): boolean {
  if (req.res?.locals.answersJson === true) return true;
  if (req.headers['sec-fetch-dest'] === 'empty') return true;
  if (String(req.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest') return true;
  return req.accepts(['html', 'json']) === 'json';
}

/** One sentence for the person: a refusal, an error, or a notice; a page, or `{ error }` to a JSON client. */
export function sendMessage(
  res: Response,
  status: number,
  title: string,
  message: string,
  tone: 'error' | 'info' = 'error',
): void {
  if (wantsJson(res.req)) {
    res.status(status).json(tone === 'error' ? { error: message } : { message });
    return;
  }
  // Shown in the LMS's frame where the LMS may frame it (framing.ts); where who may cannot be read, the tool's own.
  const send = () => {
    if (!res.headersSent) res.status(status).send(render('message', { title, message, tone }, wordsOf(res)));
  };
  frameSentence(res).then(send, send);
}
