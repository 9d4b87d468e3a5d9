// The language the tool writes into an assignment's gradebook (the comment beside a result, which the LMS shows the
// student and the teacher): the language of its instructors' launches (their launch_presentation.locale, among the
// tool's languages), kept on the assignment so that a grade job, which has no launch, knows it. Null until an
// instructor launches with a locale: English.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assignment').addColumn('lms_language', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assignment').dropColumn('lms_language').execute();
}
