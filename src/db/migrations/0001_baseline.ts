// The schema of release 1.0.0, as one statement a reader can follow table by table. Released migrations never
// change: a later change is a new file beside this one, applied on top of it (docs/operations.md, "Upgrades", and
// test/db/upgrade.test.ts, which applies every later migration to a database of this schema).
import { sql, type Kysely } from 'kysely';

const schema = /* sql */ `
-- ltijs's storage (lti/storage.ts): one row per document, unique per collection and natural key.
CREATE TABLE lti_record (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  collection text NOT NULL,
  record_key text NOT NULL,
  doc jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  CONSTRAINT lti_record_collection_key UNIQUE (collection, record_key)
);
CREATE INDEX lti_record_doc ON lti_record USING gin (doc jsonb_path_ops);
CREATE INDEX lti_record_expiry ON lti_record (expires_at) WHERE expires_at IS NOT NULL;

-- What a launch reads of the registrations (platform, deployments, the tool's keys, the learnt frame origins) is kept
-- in each process's memory (lti/registration-cache.ts). One number says whether that memory is still good: every
-- change to those rows raises it in the same transaction, whoever makes it (the CLI, the admin page, another
-- process, SQL by hand). Triggers rather than calls in the code, so that no writer can forget it; PGlite has no
-- LISTEN/NOTIFY across its socket, so the number is read, not announced.
CREATE TABLE lti_config_version (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version bigint NOT NULL DEFAULT 1
);
INSERT INTO lti_config_version (singleton, version) VALUES (true, 1);
CREATE FUNCTION lti_config_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE lti_config_version SET version = version + 1;
      RETURN NULL;
    END $$;

-- Accounts at the checking service. A platform may name its own; without one it uses the default account of the
-- environment. Passwords are sealed (AES-256-GCM under the tool's key, secrets.ts).
CREATE TABLE checker_account (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  base_url text NOT NULL,
  username text NOT NULL,
  password_encrypted text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT checker_account_login UNIQUE (base_url, username)
);

-- The one registry of LMSs (lti/registrations.ts), keyed by (issuer, client id): their addresses, the product family
-- they announced (grades/platform-quirks.ts keys the gradebook's rules by it; null: not known), and the tool's own
-- key pair for each (the key id the tool publishes in its JWKS, the private key sealed; the public key is derived).
CREATE TABLE platform (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  issuer text NOT NULL,
  client_id text NOT NULL,
  auth_url text NOT NULL,
  token_url text NOT NULL,
  jwks_url text NOT NULL,
  authorization_server text,
  registered_by text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  checker_account_id uuid REFERENCES checker_account (id) ON DELETE SET NULL,
  product_family text,
  key_id text UNIQUE,
  private_key text,
  CONSTRAINT platform_issuer_client UNIQUE (issuer, client_id),
  CONSTRAINT platform_key_pair CHECK ((key_id IS NULL) = (private_key IS NULL))
);
CREATE TRIGGER platform_changed AFTER INSERT OR UPDATE OR DELETE ON platform
  FOR EACH ROW EXECUTE FUNCTION lti_config_changed();

CREATE TABLE platform_deployment (
  platform_id uuid NOT NULL REFERENCES platform (id) ON DELETE CASCADE,
  deployment_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT platform_deployment_pk PRIMARY KEY (platform_id, deployment_id)
);
CREATE TRIGGER platform_deployment_changed AFTER INSERT OR UPDATE OR DELETE ON platform_deployment
  FOR EACH ROW EXECUTE FUNCTION lti_config_changed();

-- The hosts an LMS shows the tool from, learnt from its launches (launch_presentation.return_url): a hosted Canvas's
-- issuer is canvas.instructure.com while its pages are on the school's own host, which only a launch tells. The
-- pages' CSP frame-ancestors allows these beside the registration's own addresses.
CREATE TABLE platform_frame_origin (
  platform_id uuid NOT NULL REFERENCES platform (id) ON DELETE CASCADE,
  origin text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT platform_frame_origin_pk PRIMARY KEY (platform_id, origin)
);
CREATE TRIGGER platform_frame_origin_changed AFTER INSERT OR UPDATE OR DELETE ON platform_frame_origin
  FOR EACH ROW EXECUTE FUNCTION lti_config_changed();

-- The OIDC state is signed at login, not kept (lti/oidc-state.ts); each state a launch used is kept until it would
-- have expired, so that it is used once.
CREATE TABLE used_oidc_state (
  state text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

-- A course is the platform's context within one deployment: LTI 1.3 §5.4.1 makes a context id unique only "locally
-- to the deployment_id", so two deployments of one platform (two tenants of a hosted LMS) may both have a
-- "course-101".
CREATE TABLE course (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  platform_id uuid NOT NULL REFERENCES platform (id) ON DELETE CASCADE,
  deployment_id text NOT NULL,
  context_id text NOT NULL,
  title text,
  label text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT course_platform_deployment_context UNIQUE (platform_id, deployment_id, context_id)
);

-- The people seen in launches, by the platform's subject.
CREATE TABLE lti_user (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  platform_id uuid NOT NULL REFERENCES platform (id) ON DELETE CASCADE,
  subject text NOT NULL,
  name text,
  email text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT lti_user_platform_subject UNIQUE (platform_id, subject)
);

CREATE TABLE course_member (
  course_id uuid NOT NULL REFERENCES course (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES lti_user (id) ON DELETE CASCADE,
  roles text[] NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT course_member_pk PRIMARY KEY (course_id, user_id)
);

-- Assignments: one per (platform, course, resource link), each mapped to a folder at the checking service, in the
-- service account its platform used when it was made. The resource link is unknown while deep linking places the
-- tool; the first launch of the new link binds it. The kind: the tool's own (students submit on the tool's page,
-- the score goes to the gradebook) or the LMS's own assignment with the tool as its Asset Processor (results go back
-- as asset reports; the activity id names the assignment its notices come from, the report address and scope the
-- last Asset Processor launch named). settings_unreviewed: no instructor has looked at the defaults a student's
-- first launch gave it. lms_language: the language of its instructors' launches, for the gradebook's comment and
-- the asset reports, which have no launch of their own (null: English).
CREATE TABLE assignment (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  platform_id uuid NOT NULL REFERENCES platform (id) ON DELETE CASCADE,
  course_id uuid NOT NULL REFERENCES course (id) ON DELETE CASCADE,
  resource_link_id text,
  title text NOT NULL,
  settings jsonb NOT NULL,
  line_item_url text,
  line_items_url text,
  memberships_url text,
  folder_id bigint,
  folder_state text NOT NULL DEFAULT 'pending',
  folder_error text,
  created_by uuid REFERENCES lti_user (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  checker_account_id uuid REFERENCES checker_account (id) ON DELETE RESTRICT,
  similarity_line_item_url text,
  settings_unreviewed boolean NOT NULL DEFAULT false,
  kind text NOT NULL DEFAULT 'gradebook',
  activity_id text,
  lms_report_url text,
  lms_report_scope text,
  lms_language text,
  CONSTRAINT assignment_folder_state CHECK (folder_state IN ('pending', 'ready', 'failed')),
  CONSTRAINT assignment_kind CHECK (kind IN ('gradebook', 'asset-processor'))
);
CREATE UNIQUE INDEX assignment_resource_link ON assignment (platform_id, course_id, resource_link_id)
  WHERE resource_link_id IS NOT NULL;
CREATE INDEX assignment_course ON assignment (course_id);

-- Submissions. A submission's state moves received → uploading → processing → scored → graded, or ends rejected
-- (the service refused the file for good) or failed (the analysis failed); every move is a row in submission_event,
-- so that "stuck in pending" always has an answer. Its file waits in received_file_chunk (file_id, null once the
-- service has it or refused it). A paper id is unique only within the service account that handed it out: the pair
-- (paper_account_id, paper_id) names it, null the default account; one submission per paper. An upload job holds
-- the send lease while it sends (submissions/send-lease.ts). The gradebook: its state, the score and timestamp
-- about to be sent (written before the request) and the ones the gradebook acknowledged (grades/post-grade.ts), and
-- what the LMS has recorded (Canvas: the attempt, the column its comment went to; canvas/gradebook.md C5, C7). An
-- attempt whose paper was deleted at the service when the same student's next attempt was sent (the assignment's
-- default, "earlier attempts: replaced") keeps its result in the history, with when and by which attempt it was
-- replaced; its report is gone with the paper.
CREATE TABLE submission (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  assignment_id uuid NOT NULL REFERENCES assignment (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES lti_user (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  state text NOT NULL,
  file_label text NOT NULL,
  file_type text NOT NULL,
  file_size bigint NOT NULL,
  sha256 text NOT NULL,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  late boolean NOT NULL DEFAULT false,
  paper_id bigint,
  report_key text,
  similarity numeric(5, 2),
  ai_score numeric(5, 2),
  grammar_score numeric(5, 2),
  failure_reason text,
  scored_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  grade_state text NOT NULL DEFAULT 'none',
  grade_error text,
  graded_at timestamptz,
  send_lease text,
  send_lease_until timestamptz,
  paper_account_id uuid REFERENCES checker_account (id) ON DELETE RESTRICT,
  grade_sent_score numeric(5, 2),
  grade_sent_timestamp timestamptz,
  grade_acknowledged_score numeric(5, 2),
  grade_acknowledged_timestamp timestamptz,
  file_id uuid,
  gradebook_attempt_recorded boolean NOT NULL DEFAULT false,
  gradebook_comment_column text,
  replaced_at timestamptz,
  replaced_by_attempt integer,
  CONSTRAINT submission_attempt UNIQUE (assignment_id, user_id, attempt),
  CONSTRAINT submission_state
    CHECK (state IN ('received', 'uploading', 'processing', 'scored', 'graded', 'rejected', 'failed')),
  CONSTRAINT submission_grade_state CHECK (grade_state IN ('none', 'pending', 'posted', 'failed', 'not-gradable'))
);
CREATE INDEX submission_assignment ON submission (assignment_id, state);
CREATE UNIQUE INDEX submission_account_paper ON submission (paper_id, paper_account_id) NULLS NOT DISTINCT
  WHERE paper_id IS NOT NULL;
-- The sweep of files no submission names (submissions/sweep.ts) looks them up; few rows are ever in it.
CREATE INDEX submission_file ON submission (file_id) WHERE file_id IS NOT NULL;

CREATE TABLE submission_event (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  submission_id uuid NOT NULL REFERENCES submission (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  from_state text,
  to_state text NOT NULL,
  reason text NOT NULL,
  job_attempt integer
);
CREATE INDEX submission_event_submission ON submission_event (submission_id, id);

-- Received files, kept in the database until the service has them, so that web and worker processes on different
-- machines share nothing but the database: a run of chunks (about 1 MB each, seq from 0) written while it streams
-- in. Papers are mostly compressed already (PDF, Office files) and wait only minutes: not worth compressing.
CREATE TABLE received_file_chunk (
  file_id uuid NOT NULL,
  seq integer NOT NULL,
  bytes bytea NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT received_file_chunk_pk PRIMARY KEY (file_id, seq)
);
ALTER TABLE received_file_chunk ALTER COLUMN bytes SET STORAGE EXTERNAL;

-- The assets an LMS announced in its submission notices, for an Asset Processor assignment. A notice is never sent
-- twice, so each is kept before the tool answers; the pair (LMS submission, asset) is the LMS's immutable name of
-- one file, kept once. What becomes of it: fetched and admitted as a submission (the pipeline of the tool's own
-- page), or failed with the Asset Processor specification's error code. Its checksum as "<algorithm>:<hex>", the
-- scopes the notice named, and when its first download began (a download that keeps failing is given up in time).
CREATE TABLE lms_asset (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  assignment_id uuid NOT NULL REFERENCES assignment (id) ON DELETE CASCADE,
  lms_submission_id text NOT NULL,
  asset_id text NOT NULL,
  lms_user_id text NOT NULL,
  notice_id text NOT NULL,
  url text NOT NULL,
  report_url text,
  size bigint,
  content_type text,
  title text,
  filename text,
  state text NOT NULL DEFAULT 'received',
  received_at timestamptz NOT NULL DEFAULT now(),
  submission_id uuid REFERENCES submission (id) ON DELETE SET NULL,
  error_code text,
  error_comment text,
  checksum text,
  read_scope text,
  report_scope text,
  fetch_started_at timestamptz,
  CONSTRAINT lms_asset_once UNIQUE (assignment_id, lms_submission_id, asset_id),
  CONSTRAINT lms_asset_state CHECK (
    (state = 'received' AND submission_id IS NULL AND error_code IS NULL)
    OR (state = 'admitted' AND error_code IS NULL)
    OR (state = 'failed' AND error_code IS NOT NULL)
  )
);
CREATE INDEX lms_asset_submission ON lms_asset (submission_id);

-- The reports the tool posted for an asset, one per (asset, report type), whose timestamp only grows (the platform
-- refuses an older one with 409).
CREATE TABLE asset_report (
  asset_row_id uuid NOT NULL REFERENCES lms_asset (id) ON DELETE CASCADE,
  type text NOT NULL,
  progress text NOT NULL,
  body jsonb NOT NULL,
  posted_timestamp timestamptz NOT NULL,
  posted_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT asset_report_pk PRIMARY KEY (asset_row_id, type)
);

-- Per gradebook cell (platform, line item, user): the last score timestamp sent, so that the next is strictly later
-- and at least a second apart (AGS 3.4; Moodle compares whole seconds); the grades the tool posted to it, so that a
-- grade there that is none of them is known to be the teacher's (grades/teacher-grade.ts); and what the tool has
-- followed of it since it was empty (grades/canvas-cell.ts; canvas/gradebook.md C3).
CREATE TABLE score_clock (
  platform_id uuid NOT NULL REFERENCES platform (id) ON DELETE CASCADE,
  line_item_url text NOT NULL,
  user_subject text NOT NULL,
  last_timestamp timestamptz NOT NULL,
  given_scores numeric[] NOT NULL DEFAULT '{}',
  cell_known boolean NOT NULL DEFAULT false,
  teacher_graded boolean NOT NULL DEFAULT false,
  tool_graded boolean NOT NULL DEFAULT false,
  result_after_post numeric,
  CONSTRAINT score_clock_pk PRIMARY KEY (platform_id, line_item_url, user_subject)
);

-- The Asset Processor's terms (EULA): who accepted them, per platform deployment and user, as the LMS's EULA service
-- keeps acceptance (Canvas doc/api/document_processor.md: "per tool deployment").
CREATE TABLE eula_acceptance (
  platform_id uuid NOT NULL REFERENCES platform (id) ON DELETE CASCADE,
  deployment_id text NOT NULL,
  lms_user_id text NOT NULL,
  accepted_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT eula_acceptance_pk PRIMARY KEY (platform_id, deployment_id, lms_user_id)
);

-- A student's own due date for an assignment, as the LMS states it in the student's launch (Canvas's
-- $Canvas.assignment.dueAt.iso8601 expands to the date the assignment is due for that student, an extension
-- included): "late" is judged against it where there is one, else against the assignment's due date.
CREATE TABLE student_due_date (
  assignment_id uuid NOT NULL REFERENCES assignment (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES lti_user (id) ON DELETE CASCADE,
  due_at timestamptz NOT NULL,
  stated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT student_due_date_pkey PRIMARY KEY (assignment_id, user_id)
);

-- When each instructor opened an assignment's dashboard, so that the dashboard says what arrived since their last
-- visit: a visit is one launch's session (its ltik's hash), so that sorting and filtering within it keep the same
-- "since"; the visit before it is kept beside it.
CREATE TABLE instructor_visit (
  assignment_id uuid NOT NULL REFERENCES assignment (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES lti_user (id) ON DELETE CASCADE,
  session_hash text NOT NULL,
  seen_at timestamptz NOT NULL,
  previous_seen_at timestamptz,
  CONSTRAINT instructor_visit_pkey PRIMARY KEY (assignment_id, user_id)
);
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(schema).execute(db);
}
