// The JSON shapes the service answers with, field for field as spec 2.2 to 2.6 name them in each context: the
// same paper is `original_fn`/`doc_type`/`to_words` in the classroom list and the upload answer, and
// `original_file_name`/`document_type`/`total_words` elsewhere. Numbers in results are strings; a result not
// there yet is `--`, or `NA` in the classroom list; an unreadable paper's percent is `doc:error`.
import type { SandboxContext } from './context.js';
import type { Account, Folder, Paper } from './records.js';

const YN = (value: boolean) => (value ? 'YES' : 'NO');
const FOLDER_LIFETIME_MS = 365 * 86_400_000;

export function createViews(ctx: SandboxContext) {
  const { clock } = ctx;
  const base = () => ctx.config.publicUrl();
  const submissionCount = (folder: Folder) => ctx.store.papersIn(folder.id).length;
  const endDate = (folder: Folder) => clock.record(new Date(folder.createdAt.getTime() + FOLDER_LIFETIME_MS));
  const phraseSlots = (phrases: string[]) =>
    Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`p${i + 1}`, phrases[i] ?? null]));
  const fileLength = (paper: Paper) => `${(paper.size / 1024).toFixed(2)} Kb`;

  /** A result field: the number when done, `doc:error` for an unreadable paper's similarity, else the placeholder. */
  function result(
    paper: Paper,
    value: (f: NonNullable<Paper['findings']>) => number | null,
    placeholder: string,
    isSimilarity = false,
  ): string {
    if (paper.state === 'unreadable' && isSimilarity) return 'doc:error';
    const n = paper.findings ? value(paper.findings) : null;
    return n === null ? placeholder : String(n);
  }
  const count = (paper: Paper, pick: (f: NonNullable<Paper['findings']>) => number, placeholder: string) =>
    paper.findings ? String(pick(paper.findings)) : placeholder;

  return {
    classroomFolder(folder: Folder) {
      const s = folder.settings;
      return {
        folder_id: folder.id,
        folder_name: folder.name,
        creation_date: clock.record(folder.createdAt),
        end_date: endDate(folder),
        excludeReferences: YN(s.excludeReferences),
        excludeQuotes: YN(s.excludeQuotes),
        excludeSmallSources: YN(s.excludeSmallSources),
        excludeIncludeSources: 'NO',
        grammarCheck: YN(s.grammarCheck),
        excludePhrases: YN(s.excludePhrases),
        phrases: s.phrases.length > 0 ? phraseSlots(s.phrases) : null,
        db_studentpaper: YN(s.studentPapers),
        db_publications: YN(s.publications),
        db_internet: YN(s.internet),
        institution_repository: YN(s.institutionRepository),
        repository_scope: 'LOCAL',
        no_of_submissions: submissionCount(folder),
        exclude_threshold: s.excludeThreshold,
      };
    },

    proFolder(folder: Folder, owner: Account) {
      const s = folder.settings;
      return {
        folder_id: folder.id,
        folder_name: folder.name,
        mail_id: owner.email,
        created_date: clock.record(folder.createdAt),
        end_date: endDate(folder),
        small_sources: YN(s.excludeSmallSources),
        ex_references: YN(s.excludeReferences),
        ex_quotes: YN(s.excludeQuotes),
        grammar: YN(s.grammarCheck),
        ex_phrases: YN(s.excludePhrases),
        db_studentpaper: YN(s.studentPapers),
        db_publications: YN(s.publications),
        db_internet: YN(s.internet),
        institution_repository: YN(s.institutionRepository),
        no_of_submissions: submissionCount(folder),
        phrases: s.phrases.length > 0 ? { pId: folder.id, ...phraseSlots(s.phrases) } : null,
        email_notifications: YN(s.emailNotifications),
        exclude_threshold: s.excludeThreshold,
      };
    },

    /** An entry of GET /extreme/myFolder/{id}/submissions. */
    classroomListEntry(paper: Paper, owner: Account) {
      return {
        paper_id: paper.id,
        name: paper.authorName,
        mail_id: owner.email,
        title: paper.title,
        date_up: clock.record(paper.uploadedAt),
        percent: result(paper, (f) => f.percent, 'NA', true),
        og_percent: result(paper, (f) => f.ogPercent, 'NA', true),
        ai: result(paper, (f) => f.ai, '--'),
        ai_sup: 1,
        grammar_url:
          paper.findings?.grammar != null ? `${base()}/analysis-gateway/api/quality/download/${paper.id}` : 'NA',
        d_key: paper.findings?.reportKey ?? 'NA',
        to_char: count(paper, (f) => f.chars, 'NA'),
        to_words: count(paper, (f) => f.words, 'NA'),
        to_sens: count(paper, (f) => f.sentences, 'NA'),
        to_pages: count(paper, (f) => f.pages, 'NA'),
        file_length: fileLength(paper),
        original_fn: paper.fileName,
        doc_type: paper.documentType,
        lang: paper.language,
        lang1: 'NA',
        status: 'active',
      };
    },

    /** GET /pro/folder/{id}/submission/{paperId} (both families) and the entries of the folder-management list. */
    submission(paper: Paper, folder: Folder, owner: Account) {
      return {
        paper_id: paper.id,
        folder_id: folder.id,
        folder_name: folder.name,
        name: paper.authorName,
        mail_id: owner.email,
        title: paper.title,
        date_up: clock.record(paper.uploadedAt),
        percent: result(paper, (f) => f.percent, '--', true),
        og_percent: result(paper, (f) => f.ogPercent, '--', true),
        total_char: count(paper, (f) => f.chars, '--'),
        total_words: count(paper, (f) => f.words, '--'),
        total_pages: count(paper, (f) => f.pages, '--'),
        file_length: fileLength(paper),
        d_key: paper.findings?.reportKey ?? '--',
        status: 'active',
        original_file_name: paper.fileName,
        document_type: paper.documentType,
        language: paper.language,
        grammar: result(paper, (f) => f.grammar, '--'),
        ai: result(paper, (f) => f.ai, '--'),
        ai_sup: 1,
        flag: paper.state === 'unreadable' ? 1 : 0,
        // The classroom family's single submission also carries the secondary language and the exclusions applied.
        ...(folder.family === 'classroom'
          ? {
              language1: 'NA',
              exclude_references: YN(folder.settings.excludeReferences),
              exclude_quotes: YN(folder.settings.excludeQuotes),
              small_sources: YN(folder.settings.excludeSmallSources),
            }
          : {}),
      };
    },

    /** The `submissions` object of an upload answer: always still pending. */
    uploaded(paper: Paper, folder: Folder) {
      const links = [
        { rel: 'self', href: `${base()}/pro/folder/${folder.id}/submission/${paper.id}` },
        {
          rel: 'submissions',
          href: `${base()}/${folder.family === 'classroom' ? 'extreme/myFolder' : 'pro/folder'}/${folder.id}/submissions`,
        },
      ];
      const common = {
        paper_id: paper.id,
        name: paper.authorName,
        title: paper.title,
        date_up: clock.record(paper.uploadedAt),
        percent: '--',
        to_pages: '--',
        file_length: fileLength(paper),
        d_key: '--',
      };
      return folder.family === 'classroom'
        ? { ...common, original_fn: paper.fileName, doc_type: paper.documentType, ai: '--', links }
        : { ...common, status: 'active', ai: '--', grammar: '--', links };
    },

    envelope(status: number, message: string, selfHref?: string) {
      return {
        status,
        message,
        timeStamp: clock.envelope(),
        ...(selfHref ? { _links: { self: { href: selfHref } } } : {}),
      };
    },

    folderHref(folder: Folder) {
      return `${base()}/${folder.family === 'classroom' ? 'extreme' : 'pro'}/folder/${folder.id}`;
    },
  };
}

export type Views = ReturnType<typeof createViews>;
