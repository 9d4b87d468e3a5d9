// The sandbox's accounts, folders and papers, in memory.
import type { Match } from './analysis.js';
import type { PaperType } from './text.js';

export interface Account {
  id: number;
  email: string;
  password: string;
  name: string;
}

export interface FolderSettings {
  excludeReferences: boolean;
  excludeQuotes: boolean;
  excludeSmallSources: boolean;
  grammarCheck: boolean;
  excludePhrases: boolean;
  phrases: string[];
  studentPapers: boolean;
  publications: boolean;
  internet: boolean;
  institutionRepository: boolean;
  emailNotifications: boolean;
  excludeThreshold: number;
}

export interface Folder {
  id: number;
  ownerId: number;
  family: 'classroom' | 'pro';
  name: string;
  createdAt: Date;
  settings: FolderSettings;
}

export interface Paper {
  id: number;
  folderId: number;
  ownerId: number;
  title: string;
  authorName: string;
  fileName: string;
  type: PaperType;
  size: number;
  documentType: string;
  language: string;
  grammarCheck: boolean;
  uploadedAt: Date;
  state: 'pending' | 'done' | 'error';
  percent: number | null;
  ogPercent: number | null;
  ai: number | null;
  grammar: number | null;
  reportKey: string | null;
  wordCount: number;
  charCount: number;
  pageCount: number;
  sentenceCount: number;
  matches: Match[];
  shingles: Set<string>;
}

export const defaultFolderSettings = (): FolderSettings => ({
  excludeReferences: false,
  excludeQuotes: false,
  excludeSmallSources: false,
  grammarCheck: false,
  excludePhrases: false,
  phrases: [],
  studentPapers: true,
  publications: true,
  internet: true,
  institutionRepository: true,
  emailNotifications: false,
  excludeThreshold: 0,
});

export class SandboxStore {
  readonly accounts: Account[];
  readonly folders = new Map<number, Folder>();
  readonly papers = new Map<number, Paper>();
  #nextFolder = 1001;
  #nextPaper = 500_001;

  constructor(users: Array<{ email: string; password: string; name?: string }>) {
    this.accounts = users.map((user, i) => ({ id: i + 1, email: user.email, password: user.password, name: user.name ?? user.email.split('@')[0]! }));
  }

  newFolderId(): number {
    return this.#nextFolder++;
  }

  newPaperId(): number {
    return this.#nextPaper++;
  }

  foldersOf(ownerId: number, family: Folder['family']): Folder[] {
    return [...this.folders.values()].filter((f) => f.ownerId === ownerId && f.family === family);
  }

  papersIn(folderId: number): Paper[] {
    return [...this.papers.values()].filter((p) => p.folderId === folderId);
  }
}
