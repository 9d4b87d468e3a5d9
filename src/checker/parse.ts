// What the service sends, read tolerantly (numbers as strings, placeholders like `--`, `NA`, `doc:error`,
// `DREP`, fields that differ by context, extra fields ignored) and translated into the tool's names. Anything
// that breaks these shapes becomes a CheckerError of kind 'bad-response', never an uncaught exception.
import { z } from 'zod';
import { CheckerError } from './errors.js';
import type { Folder, Paper, Result } from './types.js';

const looseNumber = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: 'not a number' });
    return z.NEVER;
  }
  return n;
});
const optionalText = z.union([z.string(), z.number()]).transform(String).nullish();

/** A result field: a number when done, or one of the service's placeholders. */
export function parseResultField(value: unknown): Result {
  if (value === null || value === undefined) return { state: 'pending' };
  if (typeof value !== 'string' && typeof value !== 'number') return { state: 'error', reason: 'unknown' };
  const text = String(value).trim().replace(/%$/, '');
  if (text === '' || text === '--' || text.toUpperCase() === 'NA') return { state: 'pending' };
  if (text.toLowerCase() === 'doc:error') return { state: 'error', reason: 'unreadable' };
  if (text.toUpperCase() === 'DREP') return { state: 'error', reason: 'duplicate-in-repository' };
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || n > 100) return { state: 'error', reason: 'unknown' };
  return { state: 'done', percent: n };
}

function readKey(value: unknown): string | null {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  return text === '' || text === '--' || text.toUpperCase() === 'NA' ? null : text;
}

const paperShape = z
  .object({
    paper_id: looseNumber,
    folder_id: looseNumber.optional(),
    title: optionalText,
    name: optionalText,
    date_up: optionalText,
    percent: z.unknown().optional(),
    ai: z.unknown().optional(),
    grammar: z.unknown().optional(),
    d_key: z.unknown().optional(),
    original_fn: optionalText,
    original_file_name: optionalText,
    doc_type: optionalText,
    document_type: optionalText,
    lang: optionalText,
    language: optionalText,
    total_words: optionalText,
    to_words: optionalText,
    total_pages: optionalText,
    to_pages: optionalText,
    flag: z.unknown().optional(),
    status: optionalText,
  })
  .passthrough();

function toPaper(raw: z.infer<typeof paperShape>, folderId: number | null): Paper {
  const similarity = parseResultField(raw.percent);
  const flagged = raw.flag === 1 || raw.flag === '1';
  const count = (value: string | null | undefined) => {
    const n = Number(value);
    return Number.isFinite(n) && value !== null && value !== undefined && value !== '' ? n : null;
  };
  const ai = parseResultField(raw.ai);
  const grammar = parseResultField(raw.grammar);
  return {
    paperId: raw.paper_id,
    folderId: raw.folder_id ?? folderId,
    title: raw.title ?? null,
    authorName: raw.name ?? null,
    uploadedAt: raw.date_up ?? null,
    similarity: flagged && similarity.state !== 'done' ? { state: 'error', reason: 'unreadable' } : similarity,
    aiScore: ai.state === 'done' ? ai.percent : null,
    grammarScore: grammar.state === 'done' ? grammar.percent : null,
    reportKey: readKey(raw.d_key),
    fileName: raw.original_file_name ?? raw.original_fn ?? null,
    documentType: raw.document_type ?? raw.doc_type ?? null,
    language: raw.language ?? raw.lang ?? null,
    wordCount: count(raw.total_words ?? raw.to_words),
    pageCount: count(raw.total_pages ?? raw.to_pages),
    failed: flagged,
  };
}

function fail(what: string, error: unknown): never {
  const issue = error instanceof z.ZodError ? error.issues[0] : undefined;
  throw new CheckerError(
    'bad-response',
    null,
    `${what}${issue ? `: ${issue.path.join('.') || 'body'} ${issue.message}` : ''}`,
  );
}

function parseWith<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) fail(what, result.error);
  return result.data;
}

export const parseLogin = (body: unknown) =>
  parseWith(z.object({ token: z.string().min(10) }).passthrough(), body, 'login answer').token;

export function parsePaper(body: unknown, folderId: number | null = null): Paper {
  return toPaper(parseWith(paperShape, body, 'submission'), folderId);
}

const pageShape = z
  .object({ size: looseNumber, totalElements: looseNumber, totalPages: looseNumber, number: looseNumber })
  .partial()
  .passthrough();

export function parsePaperList(body: unknown, folderId: number): { papers: Paper[]; totalPages: number } {
  const shape = z
    .object({
      _embedded: z
        .object({
          submissionsList: z.array(z.unknown()).optional(),
          submissionsDTOList: z.array(z.unknown()).optional(),
        })
        .passthrough()
        .optional(),
      page: pageShape.optional(),
    })
    .passthrough();
  const data = parseWith(shape, body, 'submission list');
  const list = data._embedded?.submissionsList ?? data._embedded?.submissionsDTOList ?? [];
  return { papers: list.map((entry) => parsePaper(entry, folderId)), totalPages: data.page?.totalPages ?? 1 };
}

export function parseFolderList(body: unknown): { folders: Folder[]; totalPages: number } {
  const folder = z
    .object({
      folder_id: looseNumber,
      folder_name: z.union([z.string(), z.number()]).transform(String),
      no_of_submissions: looseNumber.optional(),
      creation_date: optionalText,
      created_date: optionalText,
    })
    .passthrough();
  const data = parseWith(
    z
      .object({ folders: z.object({ content: z.array(folder).default([]), page: pageShape.optional() }).passthrough() })
      .passthrough(),
    body,
    'folder list',
  );
  return {
    folders: data.folders.content.map((f) => ({
      folderId: f.folder_id,
      name: f.folder_name,
      createdAt: f.creation_date ?? f.created_date ?? null,
      submissionCount: f.no_of_submissions ?? null,
    })),
    totalPages: data.folders.page?.totalPages ?? 1,
  };
}

/** The folder id of a create: the last path segment of `_links.self.href` (spec 4.2). */
export function parseCreatedFolder(body: unknown): number {
  const data = parseWith(
    z.object({ _links: z.object({ self: z.object({ href: z.string() }) }) }).passthrough(),
    body,
    'folder creation answer',
  );
  const id = Number(data._links.self.href.replace(/\/+$/, '').split('/').pop());
  if (!Number.isInteger(id) || id <= 0) fail('folder creation answer: no folder id in _links.self.href', null);
  return id;
}

export function parseUpload(body: unknown, folderId: number): Paper {
  const data = parseWith(z.object({ submissions: z.unknown() }).passthrough(), body, 'upload answer');
  return parsePaper(data.submissions, folderId);
}
