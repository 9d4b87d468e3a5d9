// An assignment's folder lives in one service account: the account its platform used when the assignment was
// created. Changing a platform's account later affects new assignments only; existing folders stay where they are.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('assignment')
    .addColumn('checker_account_id', 'uuid', (col) => col.references('checker_account.id').onDelete('restrict'))
    .execute();
  await sql`UPDATE assignment SET checker_account_id = platform.checker_account_id FROM platform WHERE platform.id = assignment.platform_id`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assignment').dropColumn('checker_account_id').execute();
}
