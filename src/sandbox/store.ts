// The sandbox's accounts, folders and papers, in memory, and the ownership rules every lookup applies
// (spec 5.4: another account's folder or paper is 403; an unknown one, or one of the other family, is 404). Every
// change goes through a method here, which also writes it to the journal when there is one (journal.ts: the
// sandbox of `npm start` keeps its data in DATA_DIR across restarts); restore() builds a store from the journal.
import { shinglesOf } from './analysis.js';
import { ApiError } from './errors.js';
import type { JournalEntry, StoredFolder, StoredPaper } from './journal.js';
import type { Account, Family, Findings, Folder, Paper } from './records.js';

/** Where changes are written to, in order (journal.ts). */
export interface ChangeLog {
  write(entry: JournalEntry): void;
}

export class SandboxStore {
  readonly accounts: Account[];
  readonly folders = new Map<number, Folder>();
  readonly papers = new Map<number, Paper>();
  // Ids far apart from each other so a test that mixes up a folder id and a paper id gets a 404.
  #nextFolder = 1001;
  #nextPaper = 500_001;
  readonly #log: ChangeLog | null;
  /** With a log: each analysed paper's words, from which its shingles are made again after a restart. */
  readonly #words = new Map<number, string>();

  constructor(users: Array<{ email: string; password: string; name?: string }>, log: ChangeLog | null = null) {
    this.accounts = users.map((user, i) => ({
      id: i + 1,
      email: user.email,
      password: user.password,
      name: user.name ?? user.email.split('@')[0]!,
    }));
    this.#log = log;
  }

  /** A store holding what `entries` (a journal read back, oldest first) recorded, writing its changes to `log`. */
  static restore(
    users: Array<{ email: string; password: string; name?: string }>,
    entries: Iterable<JournalEntry>,
    log: ChangeLog,
  ): SandboxStore {
    const store = new SandboxStore(users, log);
    for (const entry of entries) store.#replay(entry);
    return store;
  }

  #replay(entry: JournalEntry): void {
    if ('next' in entry) {
      this.#nextFolder = Math.max(this.#nextFolder, entry.next.folder);
      this.#nextPaper = Math.max(this.#nextPaper, entry.next.paper);
    } else if ('folder' in entry) {
      const folder: Folder = { ...entry.folder, createdAt: new Date(entry.folder.createdAt) };
      this.folders.set(folder.id, folder);
      this.#nextFolder = Math.max(this.#nextFolder, folder.id + 1);
    } else if ('folderDeleted' in entry) {
      this.#dropFolder(entry.folderDeleted);
    } else if ('paper' in entry) {
      const { words, ...stored } = entry.paper;
      const paper: Paper = {
        ...stored,
        uploadedAt: new Date(stored.uploadedAt),
        shingles: words === null ? new Set() : shinglesOf(words ? words.split(' ') : []),
      };
      this.papers.set(paper.id, paper);
      if (words !== null) this.#words.set(paper.id, words);
      this.#nextPaper = Math.max(this.#nextPaper, paper.id + 1);
    } else if ('paperDeleted' in entry) {
      this.#dropPaper(entry.paperDeleted);
    } else if ('announced' in entry) {
      const paper = this.papers.get(entry.announced);
      if (paper) paper.announced = true;
    }
  }

  /** The journal's entries that make this store again: the next ids, the folders, the papers. */
  *snapshot(): Generator<JournalEntry> {
    yield { next: { folder: this.#nextFolder, paper: this.#nextPaper } };
    for (const folder of this.folders.values()) yield { folder: storedFolder(folder) };
    for (const paper of this.papers.values()) yield { paper: this.#storedPaper(paper) };
  }

  #storedPaper(paper: Paper): StoredPaper {
    const { shingles: _shingles, ...rest } = paper;
    return { ...rest, uploadedAt: paper.uploadedAt.toISOString(), words: this.#words.get(paper.id) ?? null };
  }

  account(id: number): Account | undefined {
    return this.accounts.find((a) => a.id === id);
  }

  addFolder(folder: Omit<Folder, 'id'>): Folder {
    const created = { ...folder, id: this.#nextFolder++ };
    this.folders.set(created.id, created);
    this.#log?.write({ folder: storedFolder(created) });
    return created;
  }

  updateFolder(folder: Folder, changes: Pick<Folder, 'name' | 'settings'>): void {
    folder.name = changes.name;
    folder.settings = changes.settings;
    this.#log?.write({ folder: storedFolder(folder) });
  }

  addPaper(paper: Omit<Paper, 'id'>): Paper {
    const created = { ...paper, id: this.#nextPaper++ };
    this.papers.set(created.id, created);
    this.#log?.write({ paper: this.#storedPaper(created) });
    return created;
  }

  /** The analysis is done: its findings (null: the text could not be read) and the words its shingles come from. */
  recordAnalysis(paper: Paper, findings: Findings | null, words: string[] | null): void {
    paper.findings = findings;
    paper.state = findings ? 'done' : 'unreadable';
    paper.upload = null;
    if (words) paper.shingles = shinglesOf(words);
    if (this.#log) {
      if (words) this.#words.set(paper.id, words.join(' '));
      this.#log.write({ paper: this.#storedPaper(paper) });
    }
  }

  recordAnnounced(paper: Paper): void {
    if (paper.announced || !this.papers.has(paper.id)) return;
    paper.announced = true;
    this.#log?.write({ announced: paper.id });
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
    if (!paper || paper.folderId !== folder.id)
      throw new ApiError(404, `Paper ${paperId} not found in folder ${folder.id}.`);
    return paper;
  }

  paperOf(account: Account, paperId: number): Paper {
    const paper = this.papers.get(paperId);
    if (!paper) throw new ApiError(404, `Paper ${paperId} not found.`);
    if (paper.ownerId !== account.id) throw new ApiError(403, 'Access denied: the paper belongs to another user.');
    return paper;
  }

  deletePaper(paper: Paper): void {
    this.#dropPaper(paper.id);
    this.#log?.write({ paperDeleted: paper.id });
  }

  deleteFolder(folder: Folder): void {
    this.#dropFolder(folder.id);
    this.#log?.write({ folderDeleted: folder.id });
  }

  #dropPaper(id: number): void {
    this.papers.delete(id);
    this.#words.delete(id);
  }

  #dropFolder(id: number): void {
    for (const paper of this.papersIn(id)) this.#dropPaper(paper.id);
    this.folders.delete(id);
  }
}

function storedFolder(folder: Folder): StoredFolder {
  return { ...folder, createdAt: folder.createdAt.toISOString() };
}
