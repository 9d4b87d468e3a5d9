// An attempt whose paper was deleted at the checking service when the same student's next attempt was sent (the
// assignment's default "earlier attempts: replaced"): its result stays in the history, marked with when and by
// which attempt it was replaced; its report is gone with the paper.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('submission')
    .addColumn('replaced_at', 'timestamptz')
    .addColumn('replaced_by_attempt', 'integer')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submission').dropColumn('replaced_at').dropColumn('replaced_by_attempt').execute();
}
