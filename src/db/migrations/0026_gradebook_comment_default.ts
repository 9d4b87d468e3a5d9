// The settings' gradeColumn gained "comment" (the similarity as a comment beside the submission, no grade), which is
// now the default of a new assignment. An assignment made before kept the old default without writing it down (its
// stored settings have no gradeColumn, which would now read as "comment"): it is written as "assignment" here, so
// an existing assignment keeps posting what it posted; its instructor changes it in the settings.
// The score clock of each cell also keeps the grades the tool posted to it, so that a grade there that is none of
// them is known to be the teacher's (grades/teacher-grade.ts), even after the attempt that posted one was deleted.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE score_clock ADD COLUMN IF NOT EXISTS given_scores numeric[] NOT NULL DEFAULT '{}'`.execute(db);
  await sql`
    UPDATE assignment
       SET settings = jsonb_set(settings, '{gradeColumn}', '"assignment"')
     WHERE jsonb_typeof(settings) = 'object'
       AND NOT settings ? 'gradeColumn'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // "assignment" written down reads as it read before: only the column goes.
  await sql`ALTER TABLE score_clock DROP COLUMN given_scores`.execute(db);
}
