// The settings' gradeColumn gained "comment" (the similarity as a comment beside the submission, no grade), which is
// now the default of a new assignment. An assignment made before kept the old default without writing it down (its
// stored settings have no gradeColumn, which would now read as "comment"): it is written as "assignment" here, so
// an existing assignment keeps posting what it posted; its instructor changes it in the settings.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE assignment
       SET settings = jsonb_set(settings, '{gradeColumn}', '"assignment"')
     WHERE jsonb_typeof(settings) = 'object'
       AND NOT settings ? 'gradeColumn'`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to undo: "assignment" written down reads as it read before.
}
