// Sending a paper to the service is leased, so that one job at a time sends a submission's paper. pg-boss hands
// a job that outlives its expiry to another worker while the first may still be sending (a large file over a
// slow link): the second could find no paper at the service yet and send it again. The sender holds the lease
// for half the job expiry and renews it as it goes; another job that finds it held tries later. A worker that
// dies stops renewing, and its lease lapses before its job expires and is handed on.
//
// A worker that is alive but cut off from the database (a network partition, a database restart) is the harder
// case: its lease lapses while it still runs, another worker takes it over and sends, and the first must then
// not send nor record anything. So the lease is a fence: its token is checked and the lease extended right
// before the request goes out (`confirm`), every state move the sender records is checked against the token in
// the same transaction (state.ts), and a sender that can no longer confirm its lease before it would lapse
// aborts the request it has in flight (`lost`).
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DatabaseSchema, SubmissionState, SubmissionTable } from '../db/index.js';

/** The sender's lease was taken over by another (or could not be confirmed): it must neither send nor record. */
export class LeaseLost extends Error {}

export interface SendLease {
  /** Names this sender: a submission's `send_lease` holds it for as long as no other sender has taken over. */
  readonly token: string;
  /** Aborted once the lease is known lost, or cannot be confirmed before it would lapse. */
  readonly lost: AbortSignal;
  /** Right before a request goes out: the lease is still this sender's, and holds a full term from now. Throws LeaseLost. */
  confirm(): Promise<void>;
  /** Gives the lease up (the send ended, well or not). */
  release(): Promise<void>;
}

/** A lease taken, with the submission's row as it stood when it was taken (what the sender may rely on from then). */
export interface TakenLease {
  lease: SendLease;
  row: Selectable<SubmissionTable>;
}

/**
 * Takes the lease on sending the submission's paper for `seconds`, renewed while held, if the submission is in one
 * of `states`; null when another sender holds it or the submission is in another state (or gone).
 */
export async function takeSendLease(
  db: Kysely<DatabaseSchema>,
  submissionId: string,
  states: readonly SubmissionState[],
  seconds: number,
  onRenewalError: (error: unknown) => void,
): Promise<TakenLease | null> {
  const token = randomUUID();
  const until = sql<Date>`now() + make_interval(secs => ${seconds})`;
  const termMs = seconds * 1000;
  const askedAt = Date.now();
  const taken = await db
    .updateTable('submission')
    .set({ send_lease: token, send_lease_until: until })
    .where('id', '=', submissionId)
    .where((eb) => eb.or([eb('send_lease_until', 'is', null), eb('send_lease_until', '<', sql<Date>`now()`)]))
    .where('state', 'in', [...states])
    .returningAll()
    .executeTakeFirst();
  if (!taken) return null;
  // Until when, by this process's clock, the lease surely holds: a term from when the last extension was asked
  // for (the database's now() is no earlier than that).
  let heldUntil = askedAt + termMs;
  const lost = new AbortController();
  const extend = async (): Promise<boolean> => {
    const asked = Date.now();
    const extended = await db
      .updateTable('submission')
      .set({ send_lease_until: until })
      .where('id', '=', submissionId)
      .where('send_lease', '=', token)
      .executeTakeFirst();
    if (Number(extended.numUpdatedRows) === 0) {
      lost.abort(new LeaseLost('Another worker took over sending this paper.'));
      return false;
    }
    heldUntil = Math.max(heldUntil, asked + termMs);
    return true;
  };
  const tickMs = termMs / 3;
  const renewal = setInterval(() => {
    // Renewals that cannot reach the database leave the lease to lapse: stop the send while it still holds.
    if (Date.now() + tickMs >= heldUntil)
      lost.abort(new LeaseLost('The lease on sending this paper could not be renewed in time.'));
    if (lost.signal.aborted) return void clearInterval(renewal);
    extend().catch(onRenewalError);
  }, tickMs);
  renewal.unref();
  const lease: SendLease = {
    token,
    lost: lost.signal,
    confirm: async () => {
      if (lost.signal.aborted || !(await extend()))
        throw new LeaseLost('Another worker took over sending this paper; this one does not send it.');
    },
    release: async () => {
      clearInterval(renewal);
      await db
        .updateTable('submission')
        .set({ send_lease: null, send_lease_until: null })
        .where('id', '=', submissionId)
        .where('send_lease', '=', token)
        .execute();
    },
  };
  return { lease, row: taken };
}
