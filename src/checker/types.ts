// The checker client's vocabulary, in the tool's own names (the service's field names stay in parse.ts).

export type Family = 'classroom' | 'pro';

/** A result the service reports as a percentage, or why there is none (yet). */
export type Result =
  | { state: 'pending' }
  | { state: 'done'; percent: number }
  | { state: 'error'; reason: 'unreadable' | 'duplicate-in-repository' | 'unknown' };

export interface FolderSettings {
  excludeReferences: boolean;
  excludeQuotes: boolean;
  excludeSmallSources: boolean;
  excludeThresholdWords: number;
  excludedPhrases: string[];
  grammarCheck: boolean;
  databases: { studentPapers: boolean; publications: boolean; internet: boolean; institutionRepository: boolean };
  /** Folder-management family only. */
  emailNotifications?: boolean;
}

export interface Folder {
  folderId: number;
  name: string;
  createdAt: string | null;
  submissionCount: number | null;
}

export interface Paper {
  paperId: number;
  folderId: number | null;
  title: string | null;
  authorName: string | null;
  uploadedAt: string | null;
  similarity: Result;
  aiScore: number | null;
  grammarScore: number | null;
  /** The report download key (d_key); null until the analysis is done. */
  reportKey: string | null;
  fileName: string | null;
  documentType: string | null;
  language: string | null;
  wordCount: number | null;
  pageCount: number | null;
  /** The service's error flag (flag 1). */
  failed: boolean;
}

/** A paper's bytes: how many, and a way to read them from the first (a login that expired sends them again). */
export interface PaperFile {
  size: number;
  read(): AsyncIterable<Uint8Array>;
}

export interface UploadInput {
  family: Family;
  folderId: number;
  file: PaperFile;
  fileName: string;
  authorName: string;
  title: string;
  documentType: string;
  plagiarismCheck: boolean;
  grammarCheck: boolean;
  language: string;
  /** Called right before each request carrying the file goes out (after any login); a throw sends nothing. */
  beforeSend?: () => Promise<void>;
  /** Aborts the request, file and all (the sender no longer has the right to send it). */
  signal?: AbortSignal;
}

/**
 * The reports the service makes of a checked paper, in its own vocabulary (spec 4.4): the similarity report, the
 * AI-content report, the one-page summary, and the grammar report (only where the folder checks grammar). What
 * the tool makes of them (labels, who may open which) is src/reports/kinds.ts.
 */
export const REPORT_KINDS = ['similarity', 'ai', 'summary', 'grammar'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
