// The sandbox's HTTP surface: every endpoint of reference/checker-api.md, both families, with its statuses and
// bodies, and the fault switches the tests use.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import express, { type NextFunction, type Request, type Response } from 'express';
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';
import { compare, shingles, simulatedAiScore, simulatedGrammarScore, words } from './analysis.js';
import { envelopeTime, recordTime, sendError } from './errors.js';
import { reportPdf, type ReportKind } from './reports.js';
import { SandboxStore, defaultFolderSettings, type Account, type Folder, type FolderSettings, type Paper } from './store.js';
import { extractText, sniff } from './text.js';

export interface SandboxFaults {
  rateLimit?: { ratio: number; retryAfterSeconds?: number };
  outage?: boolean;
  slowMs?: number;
  callbacks?: 'normal' | 'duplicate' | 'drop';
  callbackDelayMs?: number;
}

export interface SandboxConfig {
  delayMs: number;
  callbackUrl: string | null;
  maxUploadBytes: number;
  tokenTtlSeconds: number;
  users: Array<{ email: string; password: string; name?: string }>;
  logger: (line: string) => void;
  uploadDir: string;
  publicUrl: () => string;
}

export interface SandboxRuntime {
  app: express.Express;
  store: SandboxStore;
  faults: { current: SandboxFaults };
  stats: { uploads: number; callbacksSent: number; requests: number };
  pendingTimers: Set<NodeJS.Timeout>;
}

const yesNo = z.enum(['YES', 'NO']).transform((v) => v === 'YES');
const yesNoOptional = yesNo.optional();

export function createSandboxApp(config: SandboxConfig): SandboxRuntime {
  const store = new SandboxStore(config.users);
  const faults = { current: {} as SandboxFaults };
  const stats = { uploads: 0, callbacksSent: 0, requests: 0 };
  const pendingTimers = new Set<NodeJS.Timeout>();
  const secret = randomBytes(32);
  const app = express();
  app.disable('x-powered-by');

  const later = (ms: number, work: () => void) => {
    const timer = setTimeout(() => {
      pendingTimers.delete(timer);
      work();
    }, ms);
    pendingTimers.add(timer);
  };

  // Fault switches first: they answer before anything else is looked at, as a proxy in front of a real service would.
  app.use(async (_req, res, next) => {
    stats.requests += 1;
    const f = faults.current;
    if (f.slowMs) await new Promise((resolve) => setTimeout(resolve, f.slowMs));
    if (f.outage) return sendError(res, 503, 'Service temporarily unavailable (maintenance).');
    if (f.rateLimit && Math.random() < f.rateLimit.ratio) {
      res.setHeader('Retry-After', String(f.rateLimit.retryAfterSeconds ?? 1));
      return sendError(res, 429, 'Too many requests.');
    }
    next();
  });

  app.post('/authentication/authenticate', express.json({ limit: '16kb' }), async (req, res) => {
    const body = z.object({ username: z.string(), password: z.string() }).safeParse(req.body);
    if (!body.success) return sendError(res, 400, 'username and password are required.');
    const account = store.accounts.find((a) => a.email === body.data.username && a.password === body.data.password);
    if (!account) return sendError(res, 401, 'Bad credentials.');
    const token = await new SignJWT({ sub: account.email, uid: account.id })
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + config.tokenTtlSeconds)
      .sign(secret);
    res.json({ token, role: 'teacher', username: account.email, name: account.name, in_flag: false, ai_flag: true, mfa: false, id: account.id, con_type: null });
  });

  async function authenticate(req: Request, res: Response, next: NextFunction) {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Bearer ')) return sendError(res, 401, 'Full authentication is required to access this resource.');
    try {
      const { payload } = await jwtVerify(header.slice(7), secret, { algorithms: ['HS512'] });
      const account = store.accounts.find((a) => a.id === payload.uid);
      if (!account) return sendError(res, 401, 'Unknown user.');
      res.locals.account = account;
      next();
    } catch {
      sendError(res, 401, 'The token is invalid or has expired.');
    }
  }
  const me = (res: Response) => res.locals.account as Account;
  const idParam = (value: unknown) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : null);

  /** The folder, or an answer: 400 bad id, 404 none, 403 another account's. */
  function folderFor(res: Response, raw: unknown, family?: Folder['family']): Folder | null {
    const id = idParam(raw);
    const folder = id === null ? undefined : store.folders.get(id);
    if (id === null) sendError(res, 400, 'folder_id must be an integer.');
    else if (!folder || (family && folder.family !== family)) sendError(res, 404, `Folder ${id} not found.`);
    else if (folder.ownerId !== me(res).id) sendError(res, 403, 'Access denied: the folder belongs to another user.');
    else return folder;
    return null;
  }

  function paging(query: Record<string, unknown>, defaultField: string) {
    const page = Math.max(0, Number.parseInt(String(query.page ?? '0'), 10) || 0);
    const size = Math.min(500, Math.max(1, Number.parseInt(String(query.size ?? '24'), 10) || 24));
    const orderBy = query.orderBy === 'asc' ? 'asc' : 'desc';
    return { page, size, orderBy, field: typeof query.field === 'string' ? query.field : defaultField };
  }

  function pageOf<T extends { id: number }>(items: T[], query: Record<string, unknown>, defaultField: string) {
    const p = paging(query, defaultField);
    const sorted = [...items].sort((a, b) => (p.orderBy === 'asc' ? a.id - b.id : b.id - a.id));
    return { content: sorted.slice(p.page * p.size, (p.page + 1) * p.size), page: { size: p.size, totalElements: items.length, totalPages: Math.ceil(items.length / p.size), number: p.page } };
  }

  const YN = (v: boolean) => (v ? 'YES' : 'NO');
  const phrasesObject = (list: string[]) => (list.length === 0 ? null : Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`p${i + 1}`, list[i] ?? null])));

  function classroomFolder(folder: Folder) {
    const s = folder.settings;
    return {
      folder_id: folder.id, folder_name: folder.name, creation_date: recordTime(folder.createdAt), end_date: recordTime(new Date(folder.createdAt.getTime() + 365 * 86_400_000)),
      excludeReferences: YN(s.excludeReferences), excludeQuotes: YN(s.excludeQuotes), excludeSmallSources: YN(s.excludeSmallSources), excludeIncludeSources: 'NO',
      grammarCheck: YN(s.grammarCheck), excludePhrases: YN(s.excludePhrases), phrases: phrasesObject(s.phrases), db_studentpaper: YN(s.studentPapers),
      db_publications: YN(s.publications), db_internet: YN(s.internet), institution_repository: YN(s.institutionRepository), repository_scope: 'LOCAL',
      no_of_submissions: store.papersIn(folder.id).length, exclude_threshold: s.excludeThreshold,
    };
  }

  function proFolder(folder: Folder, owner: Account) {
    const s = folder.settings;
    return {
      folder_id: folder.id, folder_name: folder.name, mail_id: owner.email, created_date: recordTime(folder.createdAt), end_date: recordTime(new Date(folder.createdAt.getTime() + 365 * 86_400_000)),
      small_sources: YN(s.excludeSmallSources), ex_references: YN(s.excludeReferences), ex_quotes: YN(s.excludeQuotes), grammar: YN(s.grammarCheck), ex_phrases: YN(s.excludePhrases),
      db_studentpaper: YN(s.studentPapers), db_publications: YN(s.publications), db_internet: YN(s.internet), institution_repository: YN(s.institutionRepository),
      no_of_submissions: store.papersIn(folder.id).length, phrases: s.phrases.length ? { pId: folder.id, ...phrasesObject(s.phrases) } : null,
      email_notifications: YN(s.emailNotifications), exclude_threshold: s.excludeThreshold,
    };
  }

  const folderBody = z.object({
    assignment_name: z.string().trim().min(1).max(300).optional(),
    folder_name: z.string().trim().min(1).max(300).optional(),
    exclude_reference: yesNoOptional,
    exclude_quotes: yesNoOptional,
    exclude_small_sources: yesNoOptional,
    grammar_check: yesNoOptional,
    exclude_phrases: yesNoOptional,
    phrases: z.record(z.string(), z.string().max(500).nullable()).nullable().optional(),
    db_studentpaper: yesNoOptional,
    db_publications: yesNoOptional,
    db_internet: yesNoOptional,
    institution_repository: yesNoOptional,
    email_notifications: yesNoOptional,
    exclude_threshold: z.number().int().min(0).max(100_000).optional(),
  });

  function settingsFrom(body: z.infer<typeof folderBody>, base: FolderSettings): FolderSettings {
    const phrases = body.phrases ? Object.entries(body.phrases).filter(([k, v]) => /^p([1-9]|1[0-5])$/.test(k) && v).map(([, v]) => v!) : base.phrases;
    return {
      excludeReferences: body.exclude_reference ?? base.excludeReferences,
      excludeQuotes: body.exclude_quotes ?? base.excludeQuotes,
      excludeSmallSources: body.exclude_small_sources ?? base.excludeSmallSources,
      grammarCheck: body.grammar_check ?? base.grammarCheck,
      excludePhrases: body.exclude_phrases ?? base.excludePhrases,
      phrases,
      studentPapers: body.db_studentpaper ?? base.studentPapers,
      publications: body.db_publications ?? base.publications,
      internet: body.db_internet ?? base.internet,
      institutionRepository: body.institution_repository ?? base.institutionRepository,
      emailNotifications: body.email_notifications ?? base.emailNotifications,
      excludeThreshold: body.exclude_threshold ?? base.excludeThreshold,
    };
  }

  const json = express.json({ limit: '64kb' });

  function saveFolder(family: Folder['family']) {
    return (req: Request, res: Response) => {
      const body = folderBody.safeParse(req.body ?? {});
      if (!body.success) return sendError(res, 400, `Invalid folder: ${body.error.issues[0]!.path.join('.')} ${body.error.issues[0]!.message}.`);
      const name = body.data.assignment_name ?? body.data.folder_name;
      const existing = req.params.id === undefined ? null : folderFor(res, req.params.id, family);
      if (req.params.id !== undefined && !existing) return;
      if (!existing && !name) return sendError(res, 400, 'A folder name is required.');
      if (name && store.foldersOf(me(res).id, family).some((f) => f.name === name && f.id !== existing?.id)) return sendError(res, 409, `A folder named "${name}" exists already.`);
      const folder: Folder = existing ?? { id: store.newFolderId(), ownerId: me(res).id, family, name: name!, createdAt: new Date(), settings: defaultFolderSettings() };
      if (name) folder.name = name;
      folder.settings = settingsFrom(body.data, folder.settings);
      store.folders.set(folder.id, folder);
      const href = `${config.publicUrl()}/${family === 'classroom' ? 'extreme' : 'pro'}/folder/${folder.id}`;
      const created = !existing;
      const status = family === 'pro' ? 201 : 200;
      res.status(status).json({ status, message: created ? 'Folder created successfully' : 'Folder updated successfully', timeStamp: envelopeTime(), ...(family === 'classroom' || created ? { _links: { self: { href } } } : {}) });
    };
  }

  function deleteFolder(res: Response, rawId: unknown, family: Folder['family']) {
    const folder = folderFor(res, rawId, family);
    if (!folder) return;
    for (const paper of store.papersIn(folder.id)) store.papers.delete(paper.id);
    store.folders.delete(folder.id);
    res.json({ status: 200, message: 'Folder deleted successfully', timeStamp: envelopeTime() });
  }

  const counts = (paper: Paper) => ({ chars: String(paper.charCount), words: String(paper.wordCount), pages: String(paper.pageCount), sentences: String(paper.sentenceCount) });
  const pct = (paper: Paper, pendingMark: string) => (paper.state === 'error' ? 'doc:error' : paper.percent === null ? pendingMark : String(paper.percent));
  const key = (paper: Paper, pendingMark: string) => paper.reportKey ?? pendingMark;

  function classroomListEntry(paper: Paper) {
    const c = counts(paper);
    return {
      paper_id: paper.id, name: paper.authorName, title: paper.title, date_up: recordTime(paper.uploadedAt), percent: pct(paper, 'NA'), og_percent: pct(paper, 'NA'),
      ai: paper.ai === null ? '--' : String(paper.ai), ai_sup: 1, grammar_url: paper.grammar === null ? 'NA' : `${config.publicUrl()}/analysis-gateway/api/quality/download/${paper.id}`,
      d_key: key(paper, 'NA'), to_char: c.chars, to_words: c.words, to_sens: c.sentences, to_pages: c.pages, file_length: `${Math.ceil(paper.size / 1024)} Kb`,
      original_fn: paper.fileName, doc_type: paper.documentType, lang: paper.language, lang1: 'NA', status: 'active',
    };
  }

  function singleEntry(paper: Paper, folder: Folder, owner: Account) {
    const c = counts(paper);
    return {
      paper_id: paper.id, folder_id: folder.id, folder_name: folder.name, name: paper.authorName, mail_id: owner.email, title: paper.title, date_up: recordTime(paper.uploadedAt),
      percent: pct(paper, '--'), og_percent: pct(paper, '--'), total_char: c.chars, total_words: c.words, total_pages: c.pages, file_length: `${Math.ceil(paper.size / 1024)} Kb`,
      d_key: key(paper, '--'), status: 'active', original_file_name: paper.fileName, document_type: paper.documentType, language: paper.language, language1: 'NA',
      grammar: paper.grammar === null ? '--' : String(paper.grammar), ai: paper.ai === null ? '--' : String(paper.ai), ai_sup: 1, flag: paper.state === 'error' ? 1 : 0,
      exclude_references: YN(folder.settings.excludeReferences), exclude_quotes: YN(folder.settings.excludeQuotes), small_sources: YN(folder.settings.excludeSmallSources),
    };
  }

  async function sendCallback(paper: Paper): Promise<void> {
    const mode = faults.current.callbacks ?? 'normal';
    if (!config.callbackUrl || mode === 'drop') return;
    const body = JSON.stringify({ paper_id: paper.id, similarity: `${paper.percent ?? 0}%`, download_url: `${config.publicUrl()}/analysis-gateway/api/download2/${paper.id}/${paper.reportKey ?? '--'}`, flag: paper.state === 'error' ? 1 : 0 });
    const deliver = async (attempt: number): Promise<void> => {
      try {
        const response = await fetch(config.callbackUrl!, { method: 'PUT', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) });
        await response.body?.cancel();
        stats.callbacksSent += 1;
        if (!response.ok && attempt < 3) later(500 * 2 ** attempt, () => void deliver(attempt + 1));
      } catch {
        if (attempt < 3) later(500 * 2 ** attempt, () => void deliver(attempt + 1));
        else config.logger(`callback for paper ${paper.id} could not be delivered`);
      }
    };
    later(faults.current.callbackDelayMs ?? 0, () => {
      void deliver(0);
      if (mode === 'duplicate') later(50, () => void deliver(0));
    });
  }

  async function analyse(paper: Paper, path: string): Promise<void> {
    const text = await extractText(path, paper.type);
    await rm(path, { force: true });
    if (!store.papers.has(paper.id)) return; // deleted meanwhile
    if (text === null || words(text).length === 0) {
      paper.state = 'error';
    } else {
      const earlier = [...store.papers.values()].filter((p) => p.ownerId === paper.ownerId && p.id !== paper.id && p.state === 'done');
      const result = compare(text, earlier.map((p) => ({ paperId: p.id, title: p.title, shingles: p.shingles })));
      const list = words(text);
      paper.shingles = shingles(list);
      paper.matches = result.matches;
      paper.percent = result.percent;
      paper.ogPercent = result.percent;
      paper.ai = simulatedAiScore(text);
      paper.grammar = paper.grammarCheck ? simulatedGrammarScore(text) : null;
      paper.wordCount = list.length;
      paper.charCount = text.length;
      paper.sentenceCount = text.split(/[.!?]+/).filter((s) => s.trim()).length;
      paper.pageCount = Math.max(1, Math.ceil(list.length / 300));
      paper.reportKey = Array.from(randomBytes(20), (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[b % 36]).join('');
      paper.state = 'done';
    }
    await sendCallback(paper);
  }

  /** Multipart upload streamed to disk, refused at the limit without storing the rest (413), typed by magic bytes (422). */
  function upload(family: Folder['family']) {
    return async (req: Request, res: Response) => {
      const folder = folderFor(res, req.params.id, family);
      if (!folder) return;
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > config.maxUploadBytes + 64 * 1024) {
        // Refused before a byte is stored; the rest is read and dropped so the client gets this answer.
        sendError(res, 413, `The file exceeds the maximum upload size of ${config.maxUploadBytes} bytes.`);
        req.resume();
        return;
      }
      if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) return sendError(res, 400, 'Content type must be multipart/form-data.');
      await mkdir(config.uploadDir, { recursive: true });
      const fields: Record<string, string> = {};
      const path = join(config.uploadDir, `${randomBytes(8).toString('hex')}.part`);
      let fileName: string | null = null;
      let head = Buffer.alloc(0);
      let size = 0;
      let tooLarge = false;
      let fileDone: Promise<void> | null = null;
      try {
        await new Promise<void>((resolve, reject) => {
          const parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fileSize: config.maxUploadBytes, fields: 20, fieldSize: 8192 } });
          parser.on('field', (name, value) => (fields[name] = value));
          parser.on('file', (name, stream, info) => {
            if (name !== 'file') return void stream.resume();
            fileName = info.filename || 'paper';
            stream.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (head.length < 4096) head = Buffer.concat([head, chunk.subarray(0, 4096 - head.length)]);
            });
            stream.on('limit', () => {
              tooLarge = true;
              req.unpipe(parser);
              req.resume(); // the rest is read and dropped, never stored
              resolve();
            });
            fileDone = pipeline(stream, createWriteStream(path));
            fileDone.catch(() => undefined);
          });
          parser.on('error', reject);
          parser.on('close', () => resolve());
          req.pipe(parser);
        });
        if (tooLarge) {
          await rm(path, { force: true });
          return sendError(res, 413, `The file exceeds the maximum upload size of ${config.maxUploadBytes} bytes.`);
        }
        if (fileDone) await fileDone;
      } catch {
        await rm(path, { force: true });
        return sendError(res, 400, 'The multipart body could not be read.');
      }
      const required = family === 'classroom' ? ['authorName', 'title', 'documentType', 'plagiarismCheck', 'grammarCheck', 'language'] : ['authorName', 'title', 'documentType', 'plagiarismCheck', 'grammarCheck'];
      const missing = required.filter((field) => !fields[field]);
      if (!fileName || missing.length > 0) {
        await rm(path, { force: true });
        return sendError(res, 400, `Missing required fields: ${[...missing, ...(fileName ? [] : ['file'])].join(', ')}.`);
      }
      const type = sniff(head);
      if (!type || size === 0) {
        await rm(path, { force: true });
        return sendError(res, 422, 'Unsupported file type.');
      }
      stats.uploads += 1;
      const paper: Paper = {
        id: store.newPaperId(), folderId: folder.id, ownerId: me(res).id, title: fields.title!.slice(0, 500), authorName: fields.authorName!.slice(0, 200), fileName, type, size: (await stat(path)).size,
        documentType: fields.documentType!, language: fields.language ?? 'English', grammarCheck: fields.grammarCheck === 'YES', uploadedAt: new Date(), state: 'pending',
        percent: null, ogPercent: null, ai: null, grammar: null, reportKey: null, wordCount: 0, charCount: 0, pageCount: 0, sentenceCount: 0, matches: [], shingles: new Set(),
      };
      store.papers.set(paper.id, paper);
      later(config.delayMs, () => void analyse(paper, path).catch((error: unknown) => config.logger(`analysis of paper ${paper.id} failed: ${String(error)}`)));
      const links = [{ rel: 'self', href: `${config.publicUrl()}/pro/folder/${folder.id}/submission/${paper.id}` }, { rel: 'submissions', href: `${config.publicUrl()}/${family === 'classroom' ? 'extreme/myFolder' : 'pro/folder'}/${folder.id}/submissions` }];
      res.json({
        status: 200,
        message: 'File uploaded successfully',
        timeStamp: envelopeTime(),
        submissions: { paper_id: paper.id, name: paper.authorName, title: paper.title, date_up: recordTime(paper.uploadedAt), percent: '--', to_pages: '0', file_length: `${Math.ceil(paper.size / 1024)} Kb`, d_key: '--', original_fn: paper.fileName, doc_type: paper.documentType, ai: '--', ...(family === 'pro' ? { status: 'active', grammar: '--' } : {}), links },
      });
    };
  }

  function deletePaper(req: Request, res: Response, family: Folder['family']) {
    const folder = folderFor(res, req.params.id, family);
    if (!folder) return;
    const paperId = idParam(req.query.paperId);
    if (paperId === null) return sendError(res, 400, 'paperId must be an integer.');
    const paper = store.papers.get(paperId);
    if (!paper || paper.folderId !== folder.id) return sendError(res, 404, `Paper ${paperId} not found.`);
    store.papers.delete(paperId);
    res.json({ status: 200, message: 'Submission deleted successfully', timeStamp: envelopeTime() });
  }

  const auth = authenticate;

  // Classroom family (spec 4.2).
  app.get('/extreme/myFolders', auth, (req, res) => {
    const page = pageOf(store.foldersOf(me(res).id, 'classroom'), req.query, 'ass_id');
    res.json({ grammar_subscription: 'YES', folders: { links: [{ rel: 'self', href: `${config.publicUrl()}/extreme/myFolders` }], content: page.content.map(classroomFolder), page: page.page } });
  });
  app.post('/extreme/folder', auth, json, saveFolder('classroom'));
  app.put('/extreme/folder/:id', auth, json, saveFolder('classroom'));
  app.delete('/extreme/folder', auth, (req, res) => deleteFolder(res, req.query.id, 'classroom'));
  app.get('/extreme/myFolder/:id/submissions', auth, (req, res) => {
    const folder = folderFor(res, req.params.id, 'classroom');
    if (!folder) return;
    const page = pageOf(store.papersIn(folder.id), req.query, 'paper_id');
    res.json({ _embedded: { submissionsList: page.content.map(classroomListEntry) }, page: page.page });
  });
  app.post('/files/myFolder/:id/singleFile', auth, upload('classroom'));
  app.delete('/extreme/myFolder/:id/submissions', auth, (req, res) => deletePaper(req, res, 'classroom'));

  // Folder-management family (spec 4.3).
  app.get('/pro/folders', auth, (req, res) => {
    const page = pageOf(store.foldersOf(me(res).id, 'pro'), req.query, 'ass_id');
    res.json({ grammar_subscription: 'YES', translation: 'NO', in_flag: false, folders: { content: page.content.map((f) => proFolder(f, me(res))), page: page.page } });
  });
  app.post('/pro/folder', auth, json, saveFolder('pro'));
  app.put('/pro/folder/:id', auth, json, saveFolder('pro'));
  app.delete('/pro/folder/:id', auth, (req, res) => deleteFolder(res, req.params.id, 'pro'));
  app.get('/pro/folder/:id/submissions', auth, (req, res) => {
    const folder = folderFor(res, req.params.id, 'pro');
    if (!folder) return;
    const page = pageOf(store.papersIn(folder.id), req.query, 'paper_id');
    res.json({ _embedded: { submissionsDTOList: page.content.map((p) => singleEntry(p, folder, me(res))) }, page: page.page });
  });
  app.post('/files/folder/:id/singleFile', auth, upload('pro'));
  app.delete('/pro/folder/:id/submissions', auth, (req, res) => deletePaper(req, res, 'pro'));
  // Both families read a single submission here (spec 4.2 and 4.3).
  app.get('/pro/folder/:id/submission/:paperId', auth, (req, res) => {
    const folder = folderFor(res, req.params.id);
    if (!folder) return;
    const paperId = idParam(req.params.paperId);
    const paper = paperId === null ? undefined : store.papers.get(paperId);
    if (!paper || paper.folderId !== folder.id) return sendError(res, 404, `Paper ${req.params.paperId} not found.`);
    res.json(singleEntry(paper, folder, me(res)));
  });

  // Reports (spec 4.4).
  function report(kind: ReportKind, needsKey: boolean) {
    return (req: Request, res: Response) => {
      const paperId = idParam(req.params.paperId);
      const paper = paperId === null ? undefined : store.papers.get(paperId);
      if (!paper) return sendError(res, 404, `Paper ${req.params.paperId} not found.`);
      if (paper.ownerId !== me(res).id) return sendError(res, 403, 'Access denied: the paper belongs to another user.');
      if (kind === 'grammar' && (paper.state !== 'done' || paper.grammar === null)) return sendError(res, 400, 'Grammar report is not ready or not available for this paper.');
      if (paper.state !== 'done') return sendError(res, 404, 'The report is not ready.');
      if (needsKey && req.params.key !== paper.reportKey) return sendError(res, 404, 'Invalid d_key.');
      res.setHeader('Content-Type', 'application/pdf');
      reportPdf(kind, paper).pipe(res);
    };
  }
  app.get('/analysis-gateway/api/download2/:paperId/:key', auth, report('similarity', true));
  app.get('/analysis-gateway/api/ai/download2/:paperId/:key', auth, report('ai', true));
  app.get('/analysis-gateway/api/download/summary/:paperId/:key', auth, report('summary', true));
  app.get('/analysis-gateway/api/quality/download/:paperId', auth, report('grammar', false));

  app.use((req, res) => sendError(res, 404, `No endpoint ${req.method} ${req.path}.`));
  app.use(((error, _req, res, _next) => {
    const status = (error as { status?: number }).status;
    sendError(res, status && status >= 400 && status < 500 ? status : 500, status === 400 ? 'Malformed JSON body.' : 'Unexpected error.');
  }) as express.ErrorRequestHandler);

  return { app, store, faults, stats, pendingTimers };
}
