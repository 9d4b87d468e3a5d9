// An assignment is the tool's own (students submit on the tool's page, the score goes to the gradebook) or the
// LMS's own assignment with the tool attached as its Asset Processor (students submit in the LMS, results go back
// as asset reports). The kind decides where results go; the LMS's activity id, when the LMS sent one, names the
// assignment its notices come from.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('assignment')
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('gradebook'))
    .addColumn('activity_id', 'text')
    .execute();
  await sql`ALTER TABLE assignment ADD CONSTRAINT assignment_kind CHECK (kind IN ('gradebook', 'asset-processor'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assignment').dropConstraint('assignment_kind').execute();
  await db.schema.alterTable('assignment').dropColumn('kind').dropColumn('activity_id').execute();
}
