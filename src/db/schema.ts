// The tables as kysely sees them. Column names are snake_case in SQL and here alike.
import type { ColumnType, Generated } from 'kysely';

export interface LtiRecordTable {
  id: Generated<string>;
  collection: string;
  record_key: string;
  doc: unknown;
  created_at: ColumnType<Date, never, never>;
  expires_at: Date | null;
}

export interface PlatformTable {
  id: Generated<string>;
  name: string;
  issuer: string;
  client_id: string;
  auth_url: string;
  token_url: string;
  jwks_url: string;
  authorization_server: string | null;
  /** The LMS product as the platform names it ("moodle", "canvas", ...), kept as sent; null: not known. */
  product_family: string | null;
  /** 'cli', 'dynamic-registration', 'admin' or 'dev-platform': where the registration came from. */
  registered_by: string;
  active: Generated<boolean>;
  /** The service account this platform's assignments use; null: the default account. */
  checker_account_id: string | null;
  /** The id of the tool's key pair for this platform (the `kid` of its assertions and of /lti/keys); null: none yet. */
  key_id: string | null;
  /** The tool's private key for this platform, sealed (lti/platform-key-pair.ts); null with key_id. */
  private_key: string | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface PlatformFrameOriginTable {
  platform_id: string;
  origin: string;
  first_seen_at: ColumnType<Date, never, never>;
}

export interface PlatformDeploymentTable {
  platform_id: string;
  deployment_id: string;
  created_at: ColumnType<Date, never, never>;
}

export interface LtiUserTable {
  id: Generated<string>;
  platform_id: string;
  /** The LTI `sub`: unique only within its platform. */
  subject: string;
  name: string | null;
  email: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface CourseTable {
  id: Generated<string>;
  platform_id: string;
  deployment_id: string;
  /** Unique within its platform and deployment only (LTI 1.3 §5.4.1): two deployments' "course-101" are two courses. */
  context_id: string;
  title: string | null;
  label: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface CourseMemberTable {
  course_id: string;
  user_id: string;
  roles: string[];
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** One row: raised by triggers on every change to what launches keep in memory (src/db/migrations/0001_baseline.ts). */
export interface LtiConfigVersionTable {
  singleton: Generated<boolean>;
  version: ColumnType<string, never, never>;
}

/** An OIDC state a launch used, kept until it would have expired: a state carries one launch (lti/oidc-state.ts). */
export interface UsedOidcStateTable {
  state: string;
  expires_at: Date;
}

export interface AssignmentTable {
  id: Generated<string>;
  platform_id: string;
  course_id: string;
  resource_link_id: string | null;
  title: string;
  /** AssignmentSettings (src/assignments/settings.ts), validated on the way in and out. */
  settings: unknown;
  line_item_url: string | null;
  line_items_url: string | null;
  /** The similarity's own column, when the settings ask for one (gradeColumn "similarity"). */
  similarity_line_item_url: string | null;
  memberships_url: string | null;
  /** The service's folder id; bigint comes back from pg as a string. */
  folder_id: ColumnType<string | null, number | null, number | null>;
  folder_state: Generated<'pending' | 'ready' | 'failed'>;
  folder_error: string | null;
  created_by: string | null;
  /** The service account holding the folder (its platform's when created); null: the default account. */
  checker_account_id: string | null;
  /** Created by a student's launch with the tool's defaults, and no instructor has saved its settings since. */
  settings_unreviewed: Generated<boolean>;
  /** The tool's own assignment, or the LMS's own with the tool as its Asset Processor */
  kind: Generated<AssignmentKind>;
  /** The LMS's id of its own assignment (the activity claim), for an Asset Processor's. */
  activity_id: string | null;
  /** Where the Asset Processor's reports go when a notice names no address: the last launch that named one (0024). */
  lms_report_url: string | null;
  lms_report_scope: string | null;
  /** What the tool writes into the LMS in (a result's comment): its instructors' launch language; null: English (0033). */
  lms_language: string | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type AssignmentKind = 'gradebook' | 'asset-processor';

/** One file an LMS announced in a submission notice */
export interface LmsAssetTable {
  id: Generated<string>;
  assignment_id: string;
  /** The LMS's submission id (Canvas: "<uuid>:<attempt>") and asset id: together, one immutable file. */
  lms_submission_id: string;
  asset_id: string;
  /** The student, as the LMS names them (the notice's for_user). */
  lms_user_id: string;
  notice_id: string;
  /** Where the Asset Service serves the file, and where its reports go (null: the notice named none). */
  url: string;
  report_url: string | null;
  /** The scopes the notice listed for the Asset Service and the Asset Report Service (null: the standard ones). */
  read_scope: string | null;
  report_scope: string | null;
  /** What the LMS declared of the file, checked when it is downloaded: the checksum as "<algorithm>:<hex>". */
  checksum: string | null;
  /** When the first download began; reset when the LMS sends the file again ("Resubmit all files"). */
  fetch_started_at: Date | null;
  size: ColumnType<string | null, number | null, number | null>;
  content_type: string | null;
  title: string | null;
  filename: string | null;
  /** received: waiting to be fetched; admitted: a submission stands for it; failed: `error_code` says why. */
  state: Generated<LmsAssetState>;
  received_at: ColumnType<Date, never, never>;
  /** The submission that stands for the file once admitted (an identical earlier file's, when it was one). */
  submission_id: string | null;
  /** The specification's error code and a sentence for the reader, when the file could not be checked. */
  error_code: string | null;
  error_comment: string | null;
}

export type LmsAssetState = 'received' | 'admitted' | 'failed';

/** The last report the tool posted per (asset, report type); its timestamp only grows. */
export interface AssetReportTable {
  asset_row_id: string;
  type: string;
  progress: string;
  body: unknown;
  posted_timestamp: Date;
  posted_at: ColumnType<Date, Date | undefined, Date>;
}

/** A user's acceptance of the Asset Processor's terms, per platform deployment. */
export interface EulaAcceptanceTable {
  platform_id: string;
  deployment_id: string;
  /** The user as the LMS names them (the launch's sub, a notice's for_user). */
  lms_user_id: string;
  accepted_at: Date;
}

export type SubmissionState = 'received' | 'uploading' | 'processing' | 'scored' | 'graded' | 'rejected' | 'failed';

export interface SubmissionTable {
  id: Generated<string>;
  assignment_id: string;
  user_id: string;
  attempt: number;
  state: SubmissionState;
  /** The student's file name, cleaned, kept only to show; the file is kept under its own id (file_id). */
  file_label: string;
  file_type: string;
  file_size: ColumnType<string, number, number>;
  sha256: string;
  /** The file this submission waits to send (received_file_chunk.file_id); null once the service has it or refused it. */
  file_id: string | null;
  submitted_at: ColumnType<Date, Date | undefined, never>;
  late: Generated<boolean>;
  paper_id: ColumnType<string | null, number | null, number | null>;
  /** The service account holding the paper (null: the default account): a paper is known by this and its id. */
  paper_account_id: string | null;
  report_key: string | null;
  similarity: ColumnType<string | null, number | null, number | null>;
  ai_score: ColumnType<string | null, number | null, number | null>;
  grammar_score: ColumnType<string | null, number | null, number | null>;
  failure_reason: string | null;
  scored_at: Date | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  grade_state: Generated<GradeState>;
  grade_error: string | null;
  graded_at: Date | null;
  /** The final score about to be posted and its AGS timestamp, written before the request (grades/post-grade.ts). */
  grade_sent_score: ColumnType<string | null, number | null, number | null>;
  grade_sent_timestamp: Date | null;
  /** The final score the gradebook acknowledged (2xx) for this attempt, and its AGS timestamp. */
  grade_acknowledged_score: ColumnType<string | null, number | null, number | null>;
  grade_acknowledged_timestamp: Date | null;
  /** Whether the LMS has recorded this attempt (Canvas: a score with new_submission, once per attempt). */
  gradebook_attempt_recorded: Generated<boolean>;
  /** The column (line item) this attempt's comment reached; Canvas adds every comment it is sent. */
  gradebook_comment_column: string | null;
  /** The upload job sending the paper now, and until when its lease holds (submissions/send-lease.ts). */
  send_lease: string | null;
  send_lease_until: Date | null;
  /** When the paper was deleted at the service because a later attempt replaced it, and which attempt did. */
  replaced_at: ColumnType<Date | null, never, Date | null>;
  replaced_by_attempt: ColumnType<number | null, never, number | null>;
}

/** A student's own due date for an assignment, as the LMS stated it in the student's launch. */
export interface StudentDueDateTable {
  assignment_id: string;
  user_id: string;
  due_at: Date;
  stated_at: ColumnType<Date, Date | undefined, Date>;
}

/** When an instructor opened an assignment's dashboard, in which session, and the visit before. */
export interface InstructorVisitTable {
  assignment_id: string;
  user_id: string;
  session_hash: string;
  seen_at: Date;
  previous_seen_at: Date | null;
}

export type GradeState = 'none' | 'pending' | 'posted' | 'failed' | 'not-gradable';

export interface ScoreClockTable {
  platform_id: string;
  line_item_url: string;
  user_subject: string;
  last_timestamp: Date;
  /** Every grade (scoreGiven) the tool posted to this cell: a grade there that is none of them is the teacher's. */
  given_scores: ColumnType<string[], never, string[]>;
  /** The tool has followed the cell since it was empty or since a teacher graded it (grades/canvas-cell.ts). */
  cell_known: Generated<boolean>;
  teacher_graded: Generated<boolean>;
  /** The grade the cell holds is the tool's own. */
  tool_graded: Generated<boolean>;
  /** What the result service showed after the tool's last post (null: no score). */
  result_after_post: ColumnType<string | null, number | null | undefined, number | null>;
}

export interface SubmissionEventTable {
  id: Generated<string>;
  submission_id: string;
  at: ColumnType<Date, never, never>;
  from_state: SubmissionState | null;
  to_state: SubmissionState;
  reason: string;
  job_attempt: number | null;
}

export interface CheckerAccountTable {
  id: Generated<string>;
  name: string;
  base_url: string;
  username: string;
  /** "iv.tag.ciphertext", base64url, AES-256-GCM: see src/config/secrets.ts. */
  password_encrypted: string;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** A received file's bytes, in chunks of about 1 MB, kept until the service has the file (submissions/file-store.ts). */
export interface ReceivedFileChunkTable {
  file_id: string;
  seq: number;
  bytes: Buffer;
  written_at: Generated<Date>;
}

export interface DatabaseSchema {
  platform_frame_origin: PlatformFrameOriginTable;
  score_clock: ScoreClockTable;
  checker_account: CheckerAccountTable;
  submission: SubmissionTable;
  student_due_date: StudentDueDateTable;
  instructor_visit: InstructorVisitTable;
  submission_event: SubmissionEventTable;
  received_file_chunk: ReceivedFileChunkTable;
  assignment: AssignmentTable;
  lms_asset: LmsAssetTable;
  asset_report: AssetReportTable;
  eula_acceptance: EulaAcceptanceTable;
  lti_record: LtiRecordTable;
  platform: PlatformTable;
  platform_deployment: PlatformDeploymentTable;
  lti_user: LtiUserTable;
  course: CourseTable;
  course_member: CourseMemberTable;
  used_oidc_state: UsedOidcStateTable;
  lti_config_version: LtiConfigVersionTable;
}
