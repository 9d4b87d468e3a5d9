// A page session keeps its launch in one shape (lti/launch.ts), as one record of the collection `session`
// (lti/launch-session.ts), where it kept two in the shapes ltijs gave them (collections idtoken and contexttoken).
// The old records cannot be read as launches without the claims they dropped, so they go: a person whose session
// was open when this ran is told it ended and opens the tool again from the LMS, as after a day. Nothing else is kept
// in them (a student's submissions and grades are the tool's own tables).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM lti_record WHERE collection IN ('idtoken', 'contexttoken')`.execute(db);
}

export async function down(): Promise<void> {
  // The sessions that were ended stay ended.
}
