// An assignment a student opened before any instructor did is created with the tool's defaults. This flag says
// that no instructor has looked at those settings yet, so the instructor's pages can say which defaults apply
// until one saves the settings.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('assignment')
    .addColumn('settings_unreviewed', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assignment').dropColumn('settings_unreviewed').execute();
}
