// The tool's own upload page as a door: a student hands in a paper through it. The rules are checked, the file is
// received, and then admitted like every door's (admit.ts): only a committed submission gets a receipt.
import type { IncomingMessage } from 'node:http';
import { maxFileBytes } from '../assignments/settings.js';
import type { Assignment } from '../assignments/store.js';
import type { Sentence } from '../i18n/index.js';
import { admitFile, SubmitRefused, type AdmitDeps, type SubmitResult } from './admit.js';
import { studentDueDate } from './due-dates.js';
import { IntakeError, receiveUpload, type UploadMinRate } from './intake.js';
import { attemptsOf, canSubmit, type Submission } from './store.js';

export { SubmitRefused, type SubmitResult } from './admit.js';

export interface SubmitDeps extends AdmitDeps {
  /** An upload whose body sends nothing for this long is cut off (and nothing of it is kept). */
  uploadIdleTimeoutMs?: number;
  /** The least an upload must keep sending (UPLOAD_MIN_KB_PER_SECOND); null: no floor. */
  uploadMinRate?: UploadMinRate | null;
}

/**
 * Why the tool's own upload page takes no paper for this assignment, or null when it does. It is a door of the tool's
 * own assignments only: an LMS-owned one (the tool as its Asset Processor) takes papers in the LMS, which keeps its
 * deadline and attempts and sends the tool each file in a notice.
 */
export function ownPageRefusal(assignment: Assignment): Sentence | null {
  return assignment.kind === 'asset-processor' ? { key: 'student.refused.submitInLms' } : null;
}

/**
 * The tool's own upload page as a door: the assignment's rules, then the file received from the request, then the
 * same admission every door uses (admit.ts).
 */
export async function submitPaper(
  deps: SubmitDeps,
  assignment: Assignment,
  student: { userId: string },
  req: IncomingMessage,
): Promise<SubmitResult> {
  const closed = ownPageRefusal(assignment);
  if (closed) throw new SubmitRefused(403, closed);
  const { userId } = student;
  const ownDueAt = await studentDueDate(deps.db, assignment.id, userId);
  const rule = (attempts: Submission[]) => canSubmit(assignment.settings, attempts, new Date(), ownDueAt);
  // A first look, before a byte of the file is read (read with the session where it asked for them); the rules are
  // decided again on the attempts as they are when the file is recorded (admit.ts).
  const previous = await attemptsOf(deps.db, assignment.id, userId, 'counted');
  const decision = rule(previous);
  if (!decision.allowed) throw new SubmitRefused(409, decision.reason);
  let file;
  try {
    file = await receiveUpload(req, {
      maxBytes: maxFileBytes(assignment.settings),
      db: deps.db,
      ...(deps.uploadIdleTimeoutMs ? { idleTimeoutMs: deps.uploadIdleTimeoutMs } : {}),
      minRate: deps.uploadMinRate ?? null,
    });
  } catch (error) {
    if (error instanceof IntakeError) throw new SubmitRefused(error.status, error.sentence);
    throw error;
  }
  return admitFile(deps, { assignment, userId, previous, late: decision.late, rule }, file);
}
