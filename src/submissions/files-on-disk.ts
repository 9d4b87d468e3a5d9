// Files an earlier release kept on disk until the service had them (DATA_DIR/uploads, each submission's absolute path
// in `stored_path`) are moved into the store by whichever process can read them: every process at its start
// (moveFilesFromDisk), and the upload job that meets one not yet moved (fileMovedFromDisk). Not by the migration: it
// may run where that folder is not mounted (the CLI on another machine), and a migration does not know DATA_DIR.
import { createReadStream } from 'node:fs';
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { discardReceivedFile, keepReceivedFile, writeReceivedFile } from './received-file.js';

type Db = Kysely<DatabaseSchema>;

export interface FileOnDisk {
  /** The submission's id. */
  id: string;
  storedPath: string;
  sha256: string;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/**
 * Copies the file into the store and names it on the submission in one commit (only while the submission still
 * names the file on disk: another process may have moved it meanwhile), then removes it from disk. Gives whether this
 * call moved it; throws ENOENT when this process cannot read the file.
 */
async function moveFile(db: Db, submission: FileOnDisk): Promise<boolean> {
  const file = await writeReceivedFile(db, createReadStream(submission.storedPath), '');
  let moved = false;
  try {
    if (file.sha256 !== submission.sha256)
      throw new Error(
        `The file of submission ${submission.id} at ${submission.storedPath} is not the one its receipt names (its SHA-256 differs); it is left where it is.`,
      );
    moved = await db.transaction().execute(async (trx) => {
      const named = await trx
        .updateTable('submission')
        .set({ file_id: file.fileId, stored_path: null })
        .where('id', '=', submission.id)
        .where('stored_path', '=', submission.storedPath)
        .where('file_id', 'is', null)
        .executeTakeFirst();
      if (named.numUpdatedRows === 0n) return false;
      await keepReceivedFile(trx, file);
      return true;
    });
  } finally {
    if (!moved) await discardReceivedFile(db, file);
  }
  await rm(submission.storedPath, { force: true });
  return moved;
}

/**
 * The file a submission of an earlier release waits to send, moved into the store first if this process can read it
 * (or another process moved it meanwhile); null when the submission is gone. Throws when it is still on a disk this
 * process cannot read, so that the job is tried again (by this worker or another).
 */
export async function fileMovedFromDisk(db: Db, submission: FileOnDisk): Promise<string | null> {
  try {
    await moveFile(db, submission);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const row = await db
    .selectFrom('submission')
    .select(['file_id', 'stored_path'])
    .where('id', '=', submission.id)
    .executeTakeFirst();
  if (row && row.file_id === null && row.stored_path !== null)
    throw new Error(
      `The file of submission ${submission.id} was received by an earlier release at ${row.stored_path}, which this process cannot read; a process that can moves it into the database at its start.`,
    );
  return row?.file_id ?? null;
}

/** Left on disk by an interrupted upload (a `.part` file, or one no submission names) for this long: not arriving. */
const LEFT_FOR_MS = 60 * 60 * 1000;

/** Removes what an earlier release left in its upload folder that no submission waits for, then the folder if empty. */
async function removeLeftovers(db: Db, uploadDir: string): Promise<number> {
  let removed = 0;
  for (const dir of [join(uploadDir, 'incoming'), uploadDir]) {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (isMissing(error)) continue;
      throw error;
    }
    for (const name of names) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => null);
      if (!info?.isFile() || Date.now() - info.mtimeMs < LEFT_FOR_MS) continue;
      const named = await db.selectFrom('submission').select('id').where('stored_path', '=', path).executeTakeFirst();
      if (named) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    await rmdir(dir).catch(() => undefined); // only when empty
  }
  return removed;
}

export interface MovedFromDisk {
  /** Files moved into the database. */
  moved: number;
  /** Files of waiting submissions this process cannot read (another machine's folder): left for a process that can. */
  elsewhere: number;
  /** Files no submission waits for (left by interrupted uploads), removed. */
  removed: number;
  /** Why a file that could be read was not moved (it is not the file its receipt names, the database refused). */
  problems: string[];
}

/** At start: every file an earlier release left on disk that this process can read, moved into the store (until `stop`). */
export async function moveFilesFromDisk(db: Db, uploadDir: string, stop: AbortSignal): Promise<MovedFromDisk> {
  const waiting = await db
    .selectFrom('submission')
    .select(['id', 'stored_path', 'sha256'])
    .where('stored_path', 'is not', null)
    .where('file_id', 'is', null)
    .execute();
  const outcome: MovedFromDisk = { moved: 0, elsewhere: 0, removed: 0, problems: [] };
  for (const row of waiting) {
    if (stop.aborted) return outcome;
    try {
      if (await moveFile(db, { id: row.id, storedPath: row.stored_path!, sha256: row.sha256 })) outcome.moved += 1;
    } catch (error) {
      if (isMissing(error)) outcome.elsewhere += 1;
      else outcome.problems.push((error as Error).message);
    }
  }
  if (!stop.aborted) outcome.removed = await removeLeftovers(db, uploadDir);
  return outcome;
}
