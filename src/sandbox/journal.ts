// The sandbox's data on disk, for the sandbox that `npm start` runs in-process (in DATA_DIR/sandbox): its folders,
// papers, results and id counters, so that a restart goes on where it stopped. Each change is one JSON line
// appended to journal.jsonl (one write, before the answer goes out); at start the lines are read back and the file
// is rewritten with the live data alone (to a new file renamed over it), so it grows only by what changed since.
// Uploads waiting for their analysis stay in uploads/ beside it. One process at a time: sandbox.lock names it.
// A line cut short by a crash in the middle of its write is the last one, and is left out when read back.
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import type { Folder, Paper } from './records.js';
import { isProcessAlive } from '../observe/process-alive.js';

const JOURNAL_FILE = 'journal.jsonl';
const LOCK_FILE = 'sandbox.lock';

export type StoredFolder = Omit<Folder, 'createdAt'> & { createdAt: string };
/** A paper as written: without its shingles, with the words they are made from (null: not analysed, or unreadable). */
export type StoredPaper = Omit<Paper, 'uploadedAt' | 'shingles'> & { uploadedAt: string; words: string | null };

/** One line of the journal: a folder or a paper as it now is (new or changed), a removal, or the next ids. */
export type JournalEntry =
  | { next: { folder: number; paper: number } }
  | { folder: StoredFolder }
  | { folderDeleted: number }
  | { paper: StoredPaper }
  | { paperDeleted: number }
  | { announced: number };

/** The sandbox's data folder is open in another live process. */
export class SandboxDataBusy extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The checking-service sandbox's data in ${dir} is in use by process ${pid}. Stop that process, or give this one its own DATA_DIR (or a CHECKER_URL).`,
    );
    this.name = 'SandboxDataBusy';
  }
}

export interface Journal {
  /** The journal held entries at opening (a sandbox has run on this folder before). */
  readonly found: boolean;
  /** What the journal held at opening, oldest first; handed out once (then forgotten, to free the memory). */
  takeEntries(): JournalEntry[];
  /** Lines left out because they were not JSON (a write cut short by a crash). */
  readonly unreadable: number;
  readonly uploadDir: string;
  write(entry: JournalEntry): void;
  /** Replaces the whole file with `entries` (the live data), then appends after them. */
  rewrite(entries: Iterable<JournalEntry>): void;
  /** Removes the files in the upload folder that `keep` does not name. */
  removeUploadsExcept(keep: Set<string>): void;
  close(): void;
}

/** The live process, other than this one, whose sandbox holds the data folder `dir`; null when none does. */
export function sandboxHolder(dir: string): number | null {
  try {
    const holder = Number(readFileSync(join(dir, LOCK_FILE), 'utf8'));
    return Number.isInteger(holder) && holder !== process.pid && isProcessAlive(holder) ? holder : null;
  } catch {
    return null;
  }
}

/** The data folders open in this process (the lock file names the process, not the sandbox). */
const openHere = new Set<string>();

function lock(dir: string): void {
  if (openHere.has(resolve(dir))) throw new SandboxDataBusy(dir, process.pid);
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      openHere.add(resolve(dir));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = sandboxHolder(dir);
      if (holder !== null) throw new SandboxDataBusy(dir, holder);
      rmSync(file, { force: true }); // left by a process that ended without removing it
    }
  }
  throw new Error(`Could not take the sandbox's lock in ${dir}.`);
}

function readEntries(file: string): { entries: JournalEntry[]; unreadable: number } {
  if (!existsSync(file)) return { entries: [], unreadable: 0 };
  const entries: JournalEntry[] = [];
  let unreadable = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      unreadable += 1;
    }
  }
  return { entries, unreadable };
}

/** Opens (creating it the first time) the sandbox's data folder `dir` for this process. */
export function openJournal(dir: string): Journal {
  const uploadDir = join(dir, 'uploads');
  mkdirSync(uploadDir, { recursive: true, mode: 0o700 }); // students' papers: the owner's alone
  lock(dir);
  const file = join(dir, JOURNAL_FILE);
  let fd: number | null = null;
  try {
    const read = readEntries(file);
    let entries = read.entries;
    fd = openSync(file, 'a', 0o600);
    const journal: Journal = {
      found: entries.length > 0,
      takeEntries() {
        const taken = entries;
        entries = [];
        return taken;
      },
      unreadable: read.unreadable,
      uploadDir,
      write(entry) {
        if (fd === null) return; // closed: the sandbox is stopping, and its timers with it
        writeSync(fd, `${JSON.stringify(entry)}\n`);
      },
      rewrite(live) {
        const building = `${file}.${process.pid}.tmp`;
        const out = openSync(building, 'w', 0o600);
        try {
          // In pieces: a store of thousands of papers holds a few megabytes of words.
          let chunk = '';
          for (const entry of live) {
            chunk += `${JSON.stringify(entry)}\n`;
            if (chunk.length > 1 << 20) {
              writeSync(out, chunk);
              chunk = '';
            }
          }
          writeSync(out, chunk);
          fsyncSync(out);
        } finally {
          closeSync(out);
        }
        renameSync(building, file);
        if (fd !== null) closeSync(fd);
        fd = openSync(file, 'a', 0o600);
      },
      removeUploadsExcept(keep) {
        for (const name of readdirSync(uploadDir)) if (!keep.has(name)) rmSync(join(uploadDir, name), { force: true });
      },
      close() {
        if (fd === null) return;
        closeSync(fd);
        fd = null;
        openHere.delete(resolve(dir));
        const held =
          existsSync(join(dir, LOCK_FILE)) && readFileSync(join(dir, LOCK_FILE), 'utf8') === String(process.pid);
        if (held) rmSync(join(dir, LOCK_FILE), { force: true });
      },
    };
    return journal;
  } catch (error) {
    if (fd !== null) closeSync(fd);
    openHere.delete(resolve(dir));
    rmSync(join(dir, LOCK_FILE), { force: true });
    throw error;
  }
}
