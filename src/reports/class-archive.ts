// The class's similarity reports as one ZIP archive, streamed: each report goes from the service into the archive
// and out to the instructor a chunk at a time, one report after the other, and the next chunk is read only once
// the last has been written out, so memory stays bounded whatever the class's size. Each paper is asked for under
// the rule a single report follows (visibility.ts); a report the service does not send is a note in the archive.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';
import type { Assignment } from '../assignments/store.js';
import type { Sentence } from '../i18n/index.js';
import { classRows } from '../submissions/read-models.js';
import { reportFromService, type ReportDeps } from './from-service.js';
import { reportRefusal, type ReportAsker } from './visibility.js';

const safeName = (text: string) =>
  text
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60) || 'student';

/** The papers whose similarity report the asker may open: each student's latest attempt, once it is checked. */
async function reportsOfClass(deps: ReportDeps, assignment: Assignment, asker: ReportAsker) {
  const rows = await classRows(deps.db, assignment.id);
  return rows
    .filter((row) => row.latest.reportKey !== null && !reportRefusal(asker, assignment, row.latest, 'similarity'))
    .map((row) => ({
      submissionId: row.latest.id,
      entry: `${safeName(row.name ?? row.email ?? row.subject)}-attempt-${row.latest.attempt}`,
    }));
}

/**
 * Writes the archive to `out` (a response whose headers are set): `say` words a report's refusal for the note that
 * stands in its place. Resolves once the archive is written whole; rejects when `out` is gone (the download stopped).
 */
export async function writeClassArchive(
  deps: ReportDeps,
  assignment: Assignment,
  asker: ReportAsker,
  out: Writable,
  say: (sentence: Sentence) => string,
): Promise<number> {
  const papers = await reportsOfClass(deps, assignment, asker);
  let failure: Error | null = null;
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else if (chunk.length > 0) out.write(chunk);
    if (final) out.end();
  });
  const drained = async () => {
    if (failure) throw failure;
    if (out.destroyed) throw new Error('The download was stopped.');
    if (out.writableNeedDrain) await once(out, 'drain');
  };
  const taken = new Set<string>();
  let written = 0;
  for (const paper of papers) {
    let name = paper.entry;
    for (let n = 2; taken.has(name); n++) name = `${paper.entry}-${n}`;
    taken.add(name);
    const report = await reportFromService(deps, paper.submissionId, 'similarity');
    if ('status' in report) {
      const note = new ZipPassThrough(`${name}-not-available.txt`);
      zip.add(note);
      note.push(new TextEncoder().encode(`${say(report.sentence)}\n`), true);
      await drained();
      continue;
    }
    // PDFs are compressed already: stored as they come.
    const file = new ZipPassThrough(`${name}-similarity-report.pdf`);
    zip.add(file);
    for await (const chunk of report.stream as AsyncIterable<Uint8Array | string>) {
      file.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
      await drained();
    }
    file.push(new Uint8Array(0), true);
    written += 1;
    await drained();
  }
  zip.end();
  await drained();
  return written;
}
