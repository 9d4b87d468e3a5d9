// The LMS product a platform runs, as its product family code says it ("moodle", "canvas", "desire2learn",
// "BlackboardLearn", ...), stored at registration: grades/platform-quirks.ts keys the gradebook's quirks by it.
// Null: not known, which gets the behaviour that is safe for every LMS.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('platform').addColumn('product_family', 'text').execute();
  // Platforms registered before the column get their family once, here, from what is known of them. A dynamic
  // registration named itself "<family> at <host>" with the code its LMS announced.
  await sql`
    UPDATE platform SET product_family = split_part(name, ' at ', 1)
     WHERE registered_by = 'dynamic-registration' AND name LIKE '_% at %' AND position(' ' IN split_part(name, ' at ', 1)) = 0
  `.execute(db);
  // Otherwise only the URLs tell, by the paths and hosts these LMSs always use. This is the one place the tool
  // guesses a family from URLs, and only once: from now on the family comes from the registration alone (what the
  // LMS announced, or an administrator's --product), never from an address.
  await sql`
    UPDATE platform SET product_family = CASE
             WHEN auth_url LIKE '%/mod/lti/auth.php' THEN 'moodle'
             WHEN auth_url LIKE '%/api/lti/authorize_redirect'
               OR issuer IN ('https://canvas.instructure.com', 'https://canvas.beta.instructure.com', 'https://canvas.test.instructure.com') THEN 'canvas'
             WHEN auth_url LIKE '%/d2l/lti/authenticate' THEN 'desire2learn'
             WHEN issuer IN ('https://blackboard.com', 'https://blackboard.com/') THEN 'BlackboardLearn'
           END
     WHERE product_family IS NULL
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('platform').dropColumn('product_family').execute();
}
