// The upgrade policy (docs/operations.md, "Upgrades"): a database of the latest release, holding a school's term, is
// taken forward by every later migration to the schema a new installation gets, column for column, constraint for
// constraint, and keeps every row; a database the code cannot take forward (a build from before 1.0.0, a newer
// release) is refused with a sentence and left as it was.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { Migrator, sql, type Kysely } from 'kysely';
import { migrateToLatest, openDatabase, type Database } from '../../src/db/index.js';
import { lastReleased, migrationNames, migrationProvider } from '../../src/db/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

const opened: { database: Database; testDb: TestDatabase }[] = [];
after(async () => {
  for (const { database, testDb } of opened) {
    await database.close();
    await testDb.drop();
  }
});

/** An empty database of its own, opened in this process. */
async function emptyDatabase(): Promise<Kysely<unknown>> {
  const testDb = await createTestDatabase();
  const database = await openDatabase({ url: testDb.url, dataDir: testDb.dataDir, poolSize: 4, embedded: 'serve' });
  opened.push({ database, testDb });
  return database.db as unknown as Kysely<unknown>;
}

/** The tool's schema as the catalogue holds it: columns, constraints, indexes and triggers of its tables. */
async function schemaOf(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ line: string }>`
    SELECT format('column %s.%s %s %s default %s', table_name, column_name, data_type,
                  CASE WHEN is_nullable = 'YES' THEN 'null' ELSE 'not null' END, coalesce(column_default, '-')) AS line
      FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely%'
    UNION ALL
    SELECT format('constraint %s.%s %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid))
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
     WHERE n.nspname = 'public' AND c.conrelid::regclass::text NOT LIKE 'kysely%'
    UNION ALL
    SELECT format('index %s', indexdef) FROM pg_indexes
     WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely%'
    UNION ALL
    SELECT format('trigger %s', pg_get_triggerdef(t.oid))
      FROM pg_trigger t JOIN pg_class r ON r.oid = t.tgrelid JOIN pg_namespace n ON n.oid = r.relnamespace
     WHERE n.nspname = 'public' AND NOT t.tgisinternal
    ORDER BY line`.execute(db);
  return rows.map((row) => row.line);
}

/** Rows per table of the tool. */
async function rowCounts(db: Kysely<unknown>): Promise<Record<string, number>> {
  const { rows } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'kysely%'
     ORDER BY table_name`.execute(db);
  const counts: Record<string, number> = {};
  for (const { table_name: table } of rows) {
    const { rows: counted } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
    counts[table] = Number(counted[0]!.n);
  }
  return counts;
}

/** A school's term as the release keeps it: an LMS, a course, a teacher and a student, a paper checked and graded. */
async function keepATerm(db: Kysely<unknown>): Promise<void> {
  const platform = randomUUID();
  const course = randomUUID();
  const [teacher, student] = [randomUUID(), randomUUID()];
  const assignment = randomUUID();
  const submission = randomUUID();
  const asset = randomUUID();
  const account = randomUUID();
  await sql`
    INSERT INTO checker_account (id, name, base_url, username, password_encrypted)
      VALUES (${account}, 'School', 'https://checker.example', 'school', 'sealed');
    `.execute(db);
  await sql`
    INSERT INTO platform (id, name, issuer, client_id, auth_url, token_url, jwks_url, registered_by, product_family,
                          checker_account_id, key_id, private_key)
      VALUES (${platform}, 'Moodle', 'https://moodle.example.edu', 'client-1', 'https://moodle.example.edu/auth',
              'https://moodle.example.edu/token', 'https://moodle.example.edu/certs', 'dynamic', 'moodle',
              ${account}, 'kid-1', 'sealed-key')`.execute(db);
  await sql`INSERT INTO platform_deployment (platform_id, deployment_id) VALUES (${platform}, '1')`.execute(db);
  await sql`INSERT INTO platform_frame_origin (platform_id, origin) VALUES (${platform}, 'https://moodle.example.edu')`.execute(
    db,
  );
  await sql`INSERT INTO course (id, platform_id, deployment_id, context_id, title)
              VALUES (${course}, ${platform}, '1', 'course-101', 'Geography')`.execute(db);
  await sql`INSERT INTO lti_user (id, platform_id, subject, name) VALUES
              (${teacher}, ${platform}, 'teacher-1', 'Tess Teacher'), (${student}, ${platform}, 'student-1', 'Sam Student')`.execute(
    db,
  );
  await sql`INSERT INTO course_member (course_id, user_id, roles) VALUES
              (${course}, ${teacher}, '{Instructor}'), (${course}, ${student}, '{Learner}')`.execute(db);
  await sql`INSERT INTO assignment (id, platform_id, course_id, resource_link_id, title, settings, folder_id, folder_state,
                                    created_by, checker_account_id, line_item_url, lms_language)
              VALUES (${assignment}, ${platform}, ${course}, 'link-1', 'Essay 1', '{"gradeColumn":"comment"}', 17,
                      'ready', ${teacher}, ${account}, 'https://moodle.example.edu/lineitems/1', 'en')`.execute(db);
  await sql`INSERT INTO submission (id, assignment_id, user_id, attempt, state, file_label, file_type, file_size, sha256,
                                    paper_id, paper_account_id, similarity, scored_at, grade_state, file_id)
              VALUES (${submission}, ${assignment}, ${student}, 1, 'graded', 'essay.docx', 'docx', 3, 'abc', 500001,
                      ${account}, 12.5, now(), 'posted', ${randomUUID()})`.execute(db);
  await sql`INSERT INTO submission_event (submission_id, from_state, to_state, reason)
              VALUES (${submission}, 'scored', 'graded', 'the gradebook took the result')`.execute(db);
  await sql`INSERT INTO received_file_chunk (file_id, seq, bytes) VALUES (${randomUUID()}, 0, '\\x616263')`.execute(db);
  await sql`INSERT INTO lms_asset (id, assignment_id, lms_submission_id, asset_id, lms_user_id, notice_id, url, state,
                                   submission_id)
              VALUES (${asset}, ${assignment}, 's-1', 'a-1', 'student-1', 'n-1', 'https://moodle.example.edu/a/1',
                      'admitted', ${submission})`.execute(db);
  await sql`INSERT INTO asset_report (asset_row_id, type, progress, body, posted_timestamp)
              VALUES (${asset}, 'originality', 'Processed', '{}', now())`.execute(db);
  await sql`INSERT INTO score_clock (platform_id, line_item_url, user_subject, last_timestamp, given_scores)
              VALUES (${platform}, 'https://moodle.example.edu/lineitems/1', 'student-1', now(), '{12.5}')`.execute(db);
  await sql`INSERT INTO eula_acceptance (platform_id, deployment_id, lms_user_id) VALUES (${platform}, '1', 'student-1')`.execute(
    db,
  );
  await sql`INSERT INTO student_due_date (assignment_id, user_id, due_at) VALUES (${assignment}, ${student}, now())`.execute(
    db,
  );
  await sql`INSERT INTO instructor_visit (assignment_id, user_id, session_hash, seen_at)
              VALUES (${assignment}, ${teacher}, 'visit-1', now())`.execute(db);
  await sql`INSERT INTO used_oidc_state (state, expires_at) VALUES ('state-1', now() + interval '1 minute')`.execute(
    db,
  );
  await sql`INSERT INTO lti_record (collection, record_key, doc) VALUES ('nonce', 'n-1', '{}')`.execute(db);
}

test(`a database of release ${lastReleased.version} holding a term is taken to the new installation's schema, every row kept`, async () => {
  const fresh = await emptyDatabase();
  await migrateToLatest(fresh);

  const released = await emptyDatabase();
  const migrator = new Migrator({ db: released, provider: migrationProvider, allowUnorderedMigrations: true });
  const { error } = await migrator.migrateTo(lastReleased.migration);
  assert.equal(error, undefined);
  await keepATerm(released);
  const before = await rowCounts(released);
  assert.ok(
    Object.values(before).every((n) => n > 0),
    `the term fills every table of release ${lastReleased.version}: ${JSON.stringify(before)}`,
  );

  const later = migrationNames.slice(migrationNames.indexOf(lastReleased.migration) + 1);
  assert.deepEqual(await migrateToLatest(released), later, 'every migration after the release, in order');
  assert.deepEqual(await schemaOf(released), await schemaOf(fresh), 'the schema a new installation gets');
  const counts = await rowCounts(released);
  for (const [table, n] of Object.entries(before)) assert.equal(counts[table], n, `${table} keeps its rows`);
});

test('a database of a build from before 1.0.0 is refused with a sentence, and left as it was', async () => {
  const old = await emptyDatabase();
  await sql`CREATE TABLE kysely_migration (name varchar(255) PRIMARY KEY, timestamp varchar(255) NOT NULL)`.execute(
    old,
  );
  await sql`INSERT INTO kysely_migration VALUES ('0001_lti_records', '2026-11-01T00:00:00.000Z')`.execute(old);
  await assert.rejects(migrateToLatest(old), (error: Error) => {
    assert.equal(error.name, 'MigrationError');
    assert.match(error.message, /made by a build before release 1\.0\.0/);
    assert.match(error.message, /start with an empty database \(or DATA_DIR\)/);
    return true;
  });
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'`.execute(old);
  assert.equal(Number(rows[0]!.n), 1, 'nothing was created beside the old record of migrations');
});

test('a database of a newer release is refused with the changes this release does not know', async () => {
  const newer = await emptyDatabase();
  await migrateToLatest(newer);
  await sql`INSERT INTO kysely_migration VALUES ('9999_from_the_future', '2027-01-01T00:00:00.000Z')`.execute(newer);
  await assert.rejects(
    migrateToLatest(newer),
    /changes this release does not know \(9999_from_the_future\).*newer release/,
  );
});
