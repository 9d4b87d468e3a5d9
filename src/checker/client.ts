// The tool's client for the checking service (reference/checker-api.md): login with a cached token, both
// families' folders and submissions, streamed uploads, and reports as streams.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { CheckerError } from './errors.js';
import { send, sendJson, type CallOptions, type CheckerCallObserver, type Transport } from './http.js';
import { parseCreatedFolder, parseFolderList, parseLogin, parsePaper, parsePaperList, parseUpload } from './parse.js';
import type { Family, Folder, FolderSettings, Paper, ReportKind, UploadInput } from './types.js';

export interface CheckerClientOptions {
  baseUrl: string;
  username: string;
  password: string;
  timeoutMs?: number;
  maxRetries?: number;
  dispatcher?: Dispatcher;
  /** Log in again this long before the token's `exp`. */
  refreshMarginMs?: number;
  /** Hears each request sent to the service (for metrics). */
  observe?: CheckerCallObserver;
}

/** The `exp` of a JWT, in ms, read without verifying (the service signs it; we only need to know when it ends). */
export function tokenExpiry(token: string): number | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

const YN = (value: boolean) => (value ? 'YES' : 'NO');

function folderBody(name: string, settings: FolderSettings, family: Family): Record<string, unknown> {
  const phrases = Object.fromEntries(settings.excludedPhrases.slice(0, 15).map((phrase, i) => [`p${i + 1}`, phrase]));
  return {
    [family === 'classroom' ? 'assignment_name' : 'folder_name']: name,
    exclude_reference: YN(settings.excludeReferences),
    exclude_quotes: YN(settings.excludeQuotes),
    exclude_small_sources: YN(settings.excludeSmallSources),
    grammar_check: YN(settings.grammarCheck),
    exclude_phrases: YN(settings.excludedPhrases.length > 0),
    ...(settings.excludedPhrases.length > 0 ? { phrases } : {}),
    db_studentpaper: YN(settings.databases.studentPapers),
    db_publications: YN(settings.databases.publications),
    db_internet: YN(settings.databases.internet),
    institution_repository: YN(settings.databases.institutionRepository),
    ...(family === 'pro' ? { email_notifications: YN(settings.emailNotifications ?? false) } : {}),
    exclude_threshold: settings.excludeThresholdWords,
  };
}

export class CheckerClient {
  readonly #transport: Transport;
  readonly #username: string;
  readonly #password: string;
  readonly #refreshMarginMs: number;
  #token: { value: string; expiresAt: number } | null = null;
  #login: Promise<string> | null = null;

  constructor(options: CheckerClientOptions) {
    this.#transport = {
      baseUrl: options.baseUrl.replace(/\/+$/, '') + '/',
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 4,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(options.observe ? { observe: options.observe } : {}),
    };
    this.#username = options.username;
    this.#password = options.password;
    this.#refreshMarginMs = options.refreshMarginMs ?? 60_000;
  }

  /** A valid token; concurrent callers share one login. */
  async token(): Promise<string> {
    if (this.#token && this.#token.expiresAt - this.#refreshMarginMs > Date.now()) return this.#token.value;
    this.#login ??= (async () => {
      try {
        const body = await sendJson(this.#transport, {
          operation: 'login',
          method: 'POST',
          path: 'authentication/authenticate',
          json: { username: this.#username, password: this.#password },
          idempotent: true,
        });
        const value = parseLogin(body);
        // Without exp the lifetime is unknown: use it for ten minutes, then log in again.
        this.#token = { value, expiresAt: tokenExpiry(value) ?? Date.now() + 10 * 60_000 };
        return value;
      } finally {
        this.#login = null;
      }
    })();
    return this.#login;
  }

  /** Sends with the token; on a 401 logs in once more and repeats. */
  async #authorized<T>(call: Omit<CallOptions, 'token'>, run: (call: CallOptions) => Promise<T>): Promise<T> {
    const token = await this.token();
    try {
      return await run({ ...call, token });
    } catch (error) {
      if (!(error instanceof CheckerError) || error.kind !== 'unauthorized' || call.body !== undefined) throw error;
      if (this.#token?.value === token) this.#token = null;
      return run({ ...call, token: await this.token() });
    }
  }

  #json(call: Omit<CallOptions, 'token'>): Promise<unknown> {
    return this.#authorized(call, (c) => sendJson(this.#transport, c));
  }

  async listFolders(family: Family, page = 0, size = 24): Promise<{ folders: Folder[]; totalPages: number }> {
    return parseFolderList(
      await this.#json({
        operation: 'list-folders',
        method: 'GET',
        path: family === 'classroom' ? 'extreme/myFolders' : 'pro/folders',
        query: { page, size },
        idempotent: true,
      }),
    );
  }

  /** Every folder of the family, through all pages. */
  async allFolders(family: Family): Promise<Folder[]> {
    const all: Folder[] = [];
    for (let page = 0; ; page += 1) {
      const result = await this.listFolders(family, page, 100);
      all.push(...result.folders);
      if (page + 1 >= result.totalPages || result.folders.length === 0) return all;
    }
  }

  async createFolder(family: Family, name: string, settings: FolderSettings): Promise<number> {
    const body = await this.#json({
      operation: 'create-folder',
      method: 'POST',
      path: family === 'classroom' ? 'extreme/folder' : 'pro/folder',
      json: folderBody(name, settings, family),
      idempotent: false,
    });
    if (family === 'classroom') return parseCreatedFolder(body);
    try {
      return parseCreatedFolder(body);
    } catch {
      // The folder-management create may answer without the address: find the folder by its name.
      const found = (await this.allFolders('pro')).find((folder) => folder.name === name);
      if (!found) throw new CheckerError('bad-response', null, 'the new folder could not be found');
      return found.folderId;
    }
  }

  async updateFolder(family: Family, folderId: number, name: string, settings: FolderSettings): Promise<void> {
    await this.#json({
      operation: 'update-folder',
      method: 'PUT',
      path: `${family === 'classroom' ? 'extreme' : 'pro'}/folder/${folderId}`,
      json: folderBody(name, settings, family),
      idempotent: true,
    });
  }

  async deleteFolder(family: Family, folderId: number): Promise<void> {
    await this.#json(
      family === 'classroom'
        ? {
            operation: 'delete-folder',
            method: 'DELETE',
            path: 'extreme/folder',
            query: { id: folderId },
            idempotent: true,
          }
        : { operation: 'delete-folder', method: 'DELETE', path: `pro/folder/${folderId}`, idempotent: true },
    );
  }

  async listPapers(
    family: Family,
    folderId: number,
    page = 0,
    size = 24,
  ): Promise<{ papers: Paper[]; totalPages: number }> {
    const path =
      family === 'classroom' ? `extreme/myFolder/${folderId}/submissions` : `pro/folder/${folderId}/submissions`;
    return parsePaperList(
      await this.#json({ operation: 'list-papers', method: 'GET', path, query: { page, size }, idempotent: true }),
      folderId,
    );
  }

  async allPapers(family: Family, folderId: number): Promise<Paper[]> {
    const all: Paper[] = [];
    for (let page = 0; ; page += 1) {
      const result = await this.listPapers(family, folderId, page, 100);
      all.push(...result.papers);
      if (page + 1 >= result.totalPages || result.papers.length === 0) return all;
    }
  }

  /** One submission, with its results (the same endpoint for both families). */
  async getPaper(folderId: number, paperId: number): Promise<Paper> {
    return parsePaper(
      await this.#json({
        operation: 'get-paper',
        method: 'GET',
        path: `pro/folder/${folderId}/submission/${paperId}`,
        idempotent: true,
      }),
      folderId,
    );
  }

  async deletePaper(family: Family, folderId: number, paperId: number): Promise<void> {
    const path =
      family === 'classroom' ? `extreme/myFolder/${folderId}/submissions` : `pro/folder/${folderId}/submissions`;
    await this.#json({ operation: 'delete-paper', method: 'DELETE', path, query: { paperId }, idempotent: true });
  }

  /**
   * Uploads a paper as a stream (memory stays flat whatever its size). Never repeated here: whether a lost upload
   * reached the service is for the caller to find out (by listing the folder) before sending again.
   */
  async upload(input: UploadInput): Promise<Paper> {
    const size = input.file.size;
    const boundary = `----originality${randomBytes(12).toString('hex')}`;
    const fields: Record<string, string> = {
      authorName: input.authorName,
      title: input.title,
      documentType: input.documentType,
      plagiarismCheck: YN(input.plagiarismCheck),
      grammarCheck: YN(input.grammarCheck),
      ...(input.family === 'classroom' ? { language: input.language } : {}),
    };
    const quote = (value: string) => value.replace(/["\r\n\\]/g, '_');
    const preamble = Buffer.from(
      Object.entries(fields)
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join('') +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(input.fileName)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`);
    const path =
      input.family === 'classroom'
        ? `files/myFolder/${input.folderId}/singleFile`
        : `files/folder/${input.folderId}/singleFile`;
    async function* body(): AsyncIterable<Uint8Array> {
      yield preamble;
      yield* input.file.read();
      yield epilogue;
    }
    const token = await this.token();
    const call: CallOptions = {
      operation: 'upload',
      method: 'POST',
      path,
      token,
      body: Readable.from(body()),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(preamble.length + size + epilogue.length),
      },
      idempotent: false,
      ...(input.signal ? { signal: input.signal } : {}),
    };
    let response;
    try {
      await input.beforeSend?.();
      response = await send(this.#transport, call);
    } catch (error) {
      // An expired token is refused before the file is accepted: log in again and send once more.
      if (!(error instanceof CheckerError) || error.kind !== 'unauthorized') throw error;
      this.#token = null;
      const fresh = await this.token();
      await input.beforeSend?.();
      response = await send(this.#transport, { ...call, token: fresh, body: Readable.from(body()) });
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch {
      throw new CheckerError('network', response.statusCode, 'the upload answer was cut off');
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CheckerError('bad-response', response.statusCode, 'the upload answer is not JSON');
    }
    return parseUpload(json, input.folderId);
  }

  /** A report as a stream to pipe on; a non-PDF answer becomes a CheckerError. */
  async report(
    kind: ReportKind,
    paperId: number,
    reportKey: string | null,
  ): Promise<{ stream: Readable; contentType: string; contentLength: number | null }> {
    if (kind !== 'grammar' && !reportKey) throw new CheckerError('not-found', null, 'the paper has no report key yet');
    const path = {
      similarity: `analysis-gateway/api/download2/${paperId}/${reportKey}`,
      ai: `analysis-gateway/api/ai/download2/${paperId}/${reportKey}`,
      summary: `analysis-gateway/api/download/summary/${paperId}/${reportKey}`,
      grammar: `analysis-gateway/api/quality/download/${paperId}`,
    }[kind];
    const response = await this.#authorized({ operation: 'report', method: 'GET', path, idempotent: true }, (c) =>
      send(this.#transport, c),
    );
    const contentType = String(response.headers['content-type'] ?? '');
    if (!contentType.includes('pdf')) {
      response.body.destroy();
      throw new CheckerError(
        'bad-response',
        response.statusCode,
        `the report came as ${contentType || 'an unknown type'}, not PDF`,
      );
    }
    const length = Number(response.headers['content-length']);
    return {
      stream: response.body,
      contentType: 'application/pdf',
      contentLength: Number.isFinite(length) ? length : null,
    };
  }
}
