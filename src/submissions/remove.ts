// An instructor deletes one submission: the paper at the service first, then the file and the rows here, so
// that the student may submit again and nothing is left behind at the service.
import type { Kysely } from 'kysely';
import type { ServiceConnections } from '../accounts/connections.js';
import { failureOf, type PaperService } from '../checker/index.js';
import type { DatabaseSchema } from '../db/index.js';
import { forgetFile } from './received-file.js';
import type { ResultSink } from './result-sink.js';
import { getSubmission, type Submission } from './store.js';

export type Removal = { removed: true } | { removed: false; reason: string };

/**
 * Deletes a paper at the service (in the account `service` gives): 'deleted', 'gone' when the service no longer
 * had it (deleted before), or a sentence saying why it was not deleted (the service refused, or no account).
 */
export async function deletePaperAtService(
  service: () => Promise<PaperService>,
  paper: { folderId: number; paperId: number },
): Promise<'deleted' | 'gone' | { refused: string }> {
  try {
    await (await service()).deletePaper(paper.folderId, paper.paperId);
    return 'deleted';
  } catch (error) {
    const failure = failureOf(error);
    return failure.kind === 'missing' ? 'gone' : { refused: failure.message };
  }
}

export async function removeSubmission(
  db: Kysely<DatabaseSchema>,
  services: Pick<ServiceConnections, 'forAssignment'>,
  submissionId: string,
): Promise<Removal> {
  const submission = await getSubmission(db, submissionId);
  if (!submission) return { removed: true };
  if (submission.state === 'received' || submission.state === 'uploading') {
    return {
      removed: false,
      reason: 'This paper is on its way to the checking service; delete it once it has arrived there.',
    };
  }
  if (submission.paperId !== null) {
    const assignment = await db
      .selectFrom('assignment')
      .select('folder_id')
      .where('id', '=', submission.assignmentId)
      .executeTakeFirst();
    if (assignment?.folder_id) {
      const outcome = await deletePaperAtService(() => services.forAssignment(submission.assignmentId), {
        folderId: Number(assignment.folder_id),
        paperId: submission.paperId,
      });
      if (typeof outcome === 'object')
        return { removed: false, reason: `The checking service did not delete the paper: ${outcome.refused}` };
    }
  }
  await forgetFile(db, submission);
  await db.deleteFrom('submission').where('id', '=', submission.id).execute(); // its events go with it
  return { removed: true };
}

export interface AttemptDeletionDeps {
  db: Kysely<DatabaseSchema>;
  services: Pick<ServiceConnections, 'forAssignment'>;
  sink: Pick<ResultSink, 'removed'>;
}

/** An instructor deletes an attempt; once it is gone, the result sink shows the student's standing without it. */
export async function deleteAttempt(deps: AttemptDeletionDeps, submission: Submission): Promise<Removal> {
  const removal = await removeSubmission(deps.db, deps.services, submission.id);
  if (!removal.removed) return removal;
  await deps.sink.removed({ assignmentId: submission.assignmentId, userId: submission.userId });
  return removal;
}
