// DATA_DIR is its owner's alone: it holds the embedded database (whose socket takes any password: only the folder
// keeps other users out, src/db/embedded.ts), the generated encryption key and callback secret, and received files.
// The process's umask makes everything it and PGlite write there 0600 (folders 0700); a DATA_DIR made by hand, or
// copied, is tightened once at start, and start-up says so.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const OTHERS = 0o077;

/** Every file and folder this process creates from now on is its owner's alone (PGlite's files included). */
export function keepNewFilesPrivate(): void {
  process.umask(OTHERS);
}

export interface Tightened {
  /** DATA_DIR's own mode before, e.g. '0755'. */
  was: string;
  /** Files and folders in it (DATA_DIR included) that other users could read or enter, now the owner's alone. */
  entries: number;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/**
 * Takes group's and others' permissions off `path` and everything under it (links are left alone); returns how many
 * changed. PGlite writes its initdb's files 0666 and its relation cache 0644 whatever the umask, so the embedded
 * database calls this on its own folder after it creates it and after it stops.
 */
export function tighten(path: string): number {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return 0;
  let changed = 0;
  if ((stat.mode & OTHERS) !== 0) {
    chmodSync(path, stat.mode & 0o700);
    changed += 1;
  }
  if (stat.isDirectory()) for (const name of readdirSync(path)) changed += tighten(join(path, name));
  return changed;
}

/**
 * DATA_DIR created 0700, or an existing one (and everything in it) made its owner's alone. Returns what was tightened,
 * null when nothing needed it.
 */
export function preparePrivateDataDir(dataDir: string): Tightened | null {
  if (!existsSync(dataDir)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return null;
  }
  const was = lstatSync(dataDir).mode;
  const entries = tighten(dataDir);
  return entries > 0 ? { was: octal(was), entries } : null;
}

/** The start-up line for a DATA_DIR that was tightened. */
export function tightenedSentence(dataDir: string, tightened: Tightened): string {
  return `DATA_DIR ${dataDir} was tightened: ${tightened.entries} files and folders in it (DATA_DIR itself was ${tightened.was}) could be read, written or entered by other users of this machine; all are now its owner's alone (0700 folders, 0600 files).`;
}
