// A paper id is unique only within the checking service that handed it out: two service accounts at different
// services can hold papers with the same id. A submission's paper is therefore known by the pair (the account
// that holds it, its id), recorded with the id; null is the default account of the environment. The unique key
// is also a rule: one submission per paper, as there is one paper per submission.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('submission')
    .addColumn('paper_account_id', 'uuid', (col) => col.references('checker_account.id').onDelete('restrict'))
    .execute();
  // An assignment's folder never moves to another account, so its papers are in the assignment's account.
  await sql`
    UPDATE submission SET paper_account_id = assignment.checker_account_id
    FROM assignment
    WHERE assignment.id = submission.assignment_id AND submission.paper_id IS NOT NULL
  `.execute(db);
  // Paper id first: a callback names only the id, and finds its candidates through this index.
  await sql`
    CREATE UNIQUE INDEX submission_account_paper ON submission (paper_id, paper_account_id) NULLS NOT DISTINCT
    WHERE paper_id IS NOT NULL
  `.execute(db);
  await db.schema.dropIndex('submission_paper').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('submission_paper')
    .on('submission')
    .column('paper_id')
    .where(sql.ref('paper_id'), 'is not', null)
    .execute();
  await db.schema.dropIndex('submission_account_paper').execute();
  await db.schema.alterTable('submission').dropColumn('paper_account_id').execute();
}
