// An assignment may put the similarity in a gradebook column of its own instead of the assignment's: its
// address, once found or created (by tag "similarity" and resourceId = the assignment id).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assignment').addColumn('similarity_line_item_url', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assignment').dropColumn('similarity_line_item_url').execute();
}
