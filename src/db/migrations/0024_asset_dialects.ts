// Asset Processor notices as each LMS sends them (src/lti/claims.ts): an asset's checksum is kept as what it is,
// "<algorithm>:<hex>" (Canvas announces a SHA-256 in base64, Blackboard an MD5 in base64), where the column kept the
// LMS's text and was compared as hex; the scopes the notice lists for the Asset Service and the Asset Report Service
// are kept with the asset, since an LMS may name them otherwise; and a notice may carry no report address
// (Blackboard), which then comes from the last Asset Processor launch of the assignment that named one. And when the
// first download of an asset began, from which a download that keeps failing is given up within a bounded time.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('lms_asset')
    .addColumn('checksum', 'text')
    .addColumn('read_scope', 'text')
    .addColumn('report_scope', 'text')
    .addColumn('fetch_started_at', 'timestamptz')
    .execute();
  // What was kept before: hex compared as hex, or a base64 SHA-256 (Canvas) that no download could ever match.
  await sql`
    UPDATE lms_asset SET checksum = CASE
      WHEN sha256 ~ '^[0-9a-fA-F]{64}$' THEN 'sha256:' || lower(sha256)
      WHEN sha256 ~ '^[A-Za-z0-9+/]{43}=$' THEN 'sha256:' || encode(decode(sha256, 'base64'), 'hex')
    END`.execute(db);
  await db.schema.alterTable('lms_asset').dropColumn('sha256').execute();
  await sql`ALTER TABLE lms_asset ALTER COLUMN report_url DROP NOT NULL`.execute(db);
  await db.schema
    .alterTable('assignment')
    .addColumn('lms_report_url', 'text')
    .addColumn('lms_report_scope', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assignment').dropColumn('lms_report_url').dropColumn('lms_report_scope').execute();
  await sql`DELETE FROM lms_asset WHERE report_url IS NULL`.execute(db);
  await sql`ALTER TABLE lms_asset ALTER COLUMN report_url SET NOT NULL`.execute(db);
  await db.schema.alterTable('lms_asset').addColumn('sha256', 'text').execute();
  await sql`UPDATE lms_asset SET sha256 = substr(checksum, 8) WHERE checksum LIKE 'sha256:%'`.execute(db);
  await db.schema
    .alterTable('lms_asset')
    .dropColumn('checksum')
    .dropColumn('read_scope')
    .dropColumn('report_scope')
    .dropColumn('fetch_started_at')
    .execute();
}
