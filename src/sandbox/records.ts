// What the sandbox keeps: accounts, their folders and the papers in them, and what the analysis found in a paper.
// The store (store.ts) holds them in memory and the journal (journal.ts) writes them to disk.
import type { SourceMatch } from './analysis.js';
import type { FileType } from './filetype.js';
import type { FolderSettings } from './folder-settings.js';

export type Family = 'classroom' | 'pro';

export interface Account {
  id: number;
  email: string;
  password: string;
  name: string;
}

export interface Folder {
  id: number;
  ownerId: number;
  family: Family;
  name: string;
  createdAt: Date;
  settings: FolderSettings;
}

/** What the analysis found; absent while the paper waits, and when its text could not be read. */
export interface Findings {
  percent: number;
  ogPercent: number;
  ai: number;
  grammar: number | null;
  reportKey: string;
  chars: number;
  words: number;
  sentences: number;
  pages: number;
  matches: SourceMatch[];
}

export interface Paper {
  id: number;
  folderId: number;
  ownerId: number;
  title: string;
  authorName: string;
  fileName: string;
  fileType: FileType;
  size: number;
  documentType: string;
  language: string;
  grammarCheck: boolean;
  uploadedAt: Date;
  state: 'pending' | 'done' | 'unreadable';
  findings: Findings | null;
  /** The paper's word shingles, for comparing the account's later papers with it. */
  shingles: Set<string>;
  /** The uploaded file's name in the upload folder, while the paper waits for its analysis. */
  upload: string | null;
  /** Its completion callback went out, was given up or was switched off: nothing is left to announce. */
  announced: boolean;
}
