// Where a submission's result goes. The pipeline (store, send exactly once, poll, read back) does not know: it tells
// the sink at each step a reader outside the tool may see. The assignment's kind chooses the sink: the tool's own
// assignments go to the LMS gradebook (src/grades/gradebook-sink.ts: AGS scores), the LMS's own assignments with
// the tool as their Asset Processor to asset reports (src/assetprocessor/report-sink.ts), and never both.
import type { Kysely } from 'kysely';
import type { AssignmentSettings } from '../assignments/settings.js';
import type { AssignmentKind, DatabaseSchema } from '../db/index.js';

/** A student in an assignment: whose standing a sink shows. */
export interface StudentInAssignment {
  assignmentId: string;
  userId: string;
}

export interface ResultSink {
  /** The service took the file and is analysing it. */
  accepted(submissionId: string): Promise<void>;
  /** The paper has its result (state `scored`). */
  scored(submissionId: string): Promise<void>;
  /** The paper will have no result: the service refused it (`rejected`) or its analysis failed (`failed`). */
  ended(submissionId: string): Promise<void>;
  /** An instructor deleted an attempt: what the sink shows for the student may now be another attempt's, or none. */
  removed(student: StudentInAssignment): Promise<void>;
  /** Someone asked for a checked attempt's result to be sent again; false when it is already on its way. */
  resend(submissionId: string): Promise<boolean>;
  /** An instructor changed the assignment's settings: what the sink shows may follow them. */
  settingsChanged(assignmentId: string, before: AssignmentSettings, after: AssignmentSettings): Promise<void>;
}

/** Submissions whose assignment's kind a process keeps in mind (the newest; a paper's steps come close together). */
const KINDS_KEPT = 10_000;

/**
 * One sink over several: each call goes to the sink of the assignment's kind. An assignment's kind is set when it
 * is created and never changes, nor does a submission's assignment, so a submission's kind is read once and kept:
 * a paper's later steps (scored after accepted) ask no query.
 */
export function sinkByAssignmentKind(
  db: Kysely<DatabaseSchema>,
  sinks: Record<AssignmentKind, ResultSink>,
): ResultSink {
  const kindOfSubmission = new Map<string, AssignmentKind>();
  const ofAssignment = async (assignmentId: string) => {
    const row = await db.selectFrom('assignment').select('kind').where('id', '=', assignmentId).executeTakeFirst();
    return row ? sinks[row.kind] : null;
  };
  const ofSubmission = async (submissionId: string) => {
    let kind = kindOfSubmission.get(submissionId);
    if (kind === undefined) {
      const row = await db
        .selectFrom('submission as s')
        .innerJoin('assignment as a', 'a.id', 's.assignment_id')
        .select('a.kind')
        .where('s.id', '=', submissionId)
        .executeTakeFirst();
      if (!row) return null;
      kind = row.kind;
      if (kindOfSubmission.size >= KINDS_KEPT) kindOfSubmission.delete(kindOfSubmission.keys().next().value!);
      kindOfSubmission.set(submissionId, kind);
    }
    return sinks[kind];
  };
  return {
    accepted: async (submissionId) => (await ofSubmission(submissionId))?.accepted(submissionId),
    scored: async (submissionId) => (await ofSubmission(submissionId))?.scored(submissionId),
    ended: async (submissionId) => (await ofSubmission(submissionId))?.ended(submissionId),
    removed: async (student) => (await ofAssignment(student.assignmentId))?.removed(student),
    resend: async (submissionId) => (await (await ofSubmission(submissionId))?.resend(submissionId)) ?? false,
    settingsChanged: async (assignmentId, before, after) =>
      (await ofAssignment(assignmentId))?.settingsChanged(assignmentId, before, after),
  };
}
