// The sandbox's accounts, folders and papers, in memory, and the ownership rules every lookup applies
// (spec 5.4: another account's folder or paper is 403; an unknown one, or one of the other family, is 404).
import type { SourceMatch } from './analysis.js';
import { ApiError } from './errors.js';
import type { FileType } from './filetype.js';

export type Family = 'classroom' | 'pro';

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
  // Ids far apart from each other so a test that mixes up a folder id and a paper id gets a 404.
  #nextFolder = 1001;
  #nextPaper = 500_001;

  constructor(users: Array<{ email: string; password: string; name?: string }>) {
    this.accounts = users.map((user, i) => ({ id: i + 1, email: user.email, password: user.password, name: user.name ?? user.email.split('@')[0]! }));
  }

  account(id: number): Account | undefined {
    return this.accounts.find((a) => a.id === id);
  }

  addFolder(folder: Omit<Folder, 'id'>): Folder {
    const created = { ...folder, id: this.#nextFolder++ };
    this.folders.set(created.id, created);
    return created;
  }

  addPaper(paper: Omit<Paper, 'id'>): Paper {
    const created = { ...paper, id: this.#nextPaper++ };
    this.papers.set(created.id, created);
    return created;
  }

  foldersOf(ownerId: number, family: Family): Folder[] {
    return [...this.folders.values()].filter((f) => f.ownerId === ownerId && f.family === family);
  }

  papersIn(folderId: number): Paper[] {
    return [...this.papers.values()].filter((p) => p.folderId === folderId);
  }

  /** The account's folder of that family; `family` undefined: either family. */
  folderOf(account: Account, id: number, family?: Family): Folder {
    const folder = this.folders.get(id);
    if (!folder || (family && folder.family !== family)) throw new ApiError(404, `Folder ${id} not found.`);
    if (folder.ownerId !== account.id) throw new ApiError(403, 'Access denied: the folder belongs to another user.');
    return folder;
  }

  paperIn(folder: Folder, paperId: number): Paper {
    const paper = this.papers.get(paperId);
    if (!paper || paper.folderId !== folder.id) throw new ApiError(404, `Paper ${paperId} not found in folder ${folder.id}.`);
    return paper;
  }

  paperOf(account: Account, paperId: number): Paper {
    const paper = this.papers.get(paperId);
    if (!paper) throw new ApiError(404, `Paper ${paperId} not found.`);
    if (paper.ownerId !== account.id) throw new ApiError(403, 'Access denied: the paper belongs to another user.');
    return paper;
  }

  deleteFolder(folder: Folder): void {
    for (const paper of this.papersIn(folder.id)) this.papers.delete(paper.id);
    this.folders.delete(folder.id);
  }
}
