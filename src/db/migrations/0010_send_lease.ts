// An upload job holds a lease on sending a submission's paper while it sends (see submissions/send-lease.ts):
// the holder's token and until when it holds, renewed as the send goes on.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('submission')
    .addColumn('send_lease', 'text')
    .addColumn('send_lease_until', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submission').dropColumn('send_lease').dropColumn('send_lease_until').execute();
}
