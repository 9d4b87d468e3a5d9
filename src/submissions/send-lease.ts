// Sending a paper to the service is leased, so that one job at a time sends a submission's paper. pg-boss hands
// a job that outlives its expiry to another worker while the first may still be sending (a large file over a
// slow link): the second could find no paper at the service yet and send it again. The sender holds the lease
// for half the job expiry and renews it as it goes; another job that finds it held tries later. A worker that
// dies stops renewing, and its lease lapses before its job expires and is handed on.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';

export interface SendLease {
  /** Gives the lease up (the send ended, well or not). */
  release(): Promise<void>;
}

/** Takes the lease on sending the submission's paper for `seconds`, renewed while held; null when another holds it. */
export async function takeSendLease(
  db: Kysely<DatabaseSchema>,
  submissionId: string,
  seconds: number,
  onRenewalError: (error: unknown) => void,
): Promise<SendLease | null> {
  const token = randomUUID();
  const until = sql<Date>`now() + make_interval(secs => ${seconds})`;
  const taken = await db
    .updateTable('submission')
    .set({ send_lease: token, send_lease_until: until })
    .where('id', '=', submissionId)
    .where((eb) => eb.or([eb('send_lease_until', 'is', null), eb('send_lease_until', '<', sql<Date>`now()`)]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return null;
  const ours = () => db.updateTable('submission').where('id', '=', submissionId).where('send_lease', '=', token);
  const renewal = setInterval(() => {
    ours().set({ send_lease_until: until }).execute().catch(onRenewalError);
  }, (seconds * 1000) / 3);
  renewal.unref();
  return {
    release: async () => {
      clearInterval(renewal);
      await ours().set({ send_lease: null, send_lease_until: null }).execute();
    },
  };
}
