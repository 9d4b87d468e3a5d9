// The emulator's memory: its people, resource links, line items, scores, access tokens and what tools sent it, with
// the vocabulary they are written in. Everything lives here and nowhere else; the concerns read and change it.
import { randomBytes } from 'node:crypto';

/**
 * Whose behaviour the emulator copies where platforms differ: Moodle's, Canvas's, D2L Brightspace's, Blackboard's, or
 * the specification's. Brightspace and Blackboard judge scores by the specification (their documents say no more of
 * it) and differ in what their teachers and students read (ags-gradebook.ts; test/fixtures/lms/<lms>/gradebook.md).
 */
export type PlatformRules = 'moodle' | 'canvas' | 'brightspace' | 'blackboard' | 'spec';

export const LIS = 'http://purl.imsglobal.org/vocab/lis/v2';
export const ROLES = {
  instructor: [`${LIS}/membership#Instructor`, `${LIS}/institution/person#Faculty`],
  learner: [`${LIS}/membership#Learner`, `${LIS}/institution/person#Student`],
  admin: [`${LIS}/institution/person#Administrator`, `${LIS}/system/person#Administrator`],
};

/** Whether the person teaches (or administers) the course: sees everyone's work and adds tools. */
export const teaches = (user: DevUser) =>
  user.roles.some((role) => role.endsWith('#Instructor') || role.endsWith('#Administrator'));

export interface DevUser {
  /** The LTI `sub`. */
  id: string;
  name: string;
  email: string;
  roles: string[];
  /**
   * The user's language, which the launch states as launch_presentation.locale (Moodle: current_language(), in
   * mod/lti/locallib.php's launch_presentation_locale; test/fixtures/lms/moodle/submission-review-request.json).
   * Left out of the launch when not set.
   */
  locale?: string;
}

export interface Course {
  id: string;
  title: string;
  label: string;
}

export interface LineItem {
  id: string;
  label: string;
  scoreMaximum: number;
  tag?: string;
  resourceId?: string;
  resourceLinkId?: string;
  /** Where the gradebook opens a user's submission in the tool (https://www.imsglobal.org/spec/lti-ags/v2p0/#submissionreview). */
  submissionReview?: SubmissionReview;
  /**
   * Canvas: the line item whose assignment this one belongs to (its own id: it is the assignment's column). A line item
   * a tool creates with a resourceLinkId joins the link's assignment as a second line item, which is no column
   * (canvas-gradebook.ts).
   */
  assignmentId?: string;
}

export interface SubmissionReview {
  reachableBy?: string[];
  url?: string;
  custom?: Record<string, string>;
}

export interface ResourceLink {
  id: string;
  title: string;
  custom: Record<string, string>;
  /**
   * The assignment's due dates as Canvas keeps them, for its $Canvas.assignment.dueAt.iso8601 (custom-variables.ts):
   * the assignment's own, and a student's own (an extension) by user id.
   */
  dueAt?: string | null;
  dueAtFor?: Record<string, string>;
  /** Line items bound to the link (the platform sends `lineitem` when there is exactly one). */
  lineItemIds: string[];
}

export interface Score {
  lineItemId: string;
  userId: string;
  scoreGiven: number | null;
  scoreMaximum: number;
  comment?: string;
  timestamp: string;
  activityProgress: string;
  gradingProgress: string;
  submittedAt?: string;
  /** Who gave the grade the cell shows: the tool (a score post) or the teacher (in the LMS's gradebook). */
  gradedBy?: 'tool' | 'teacher';
  /** Canvas only: the cell is a Canvas submission (canvas-gradebook.ts). */
  canvas?: CanvasSubmission;
}

/** A Canvas submission as app/models/submission.rb keeps it (test/fixtures/lms/canvas/gradebook.md). */
export interface CanvasSubmission {
  workflowState: 'unsubmitted' | 'submitted' | 'pending_review' | 'graded';
  /** Null until an attempt is submitted (external_tool for a tool's): such a row is never in "needs grading". */
  submissionType: string | null;
  /** The attempts submitted (0: none). */
  attempt: number;
  submittedAt: string | null;
  /** Whether the grade is of the current attempt (false after a resubmission over a grade). */
  gradeMatchesCurrentSubmission: boolean;
  /** When the grade and comments were posted to the student (null: hidden from them). */
  postedAt: string | null;
  comments: CanvasComment[];
}

export interface CanvasComment {
  text: string;
  /** The tool's comments have no author (skip_author); a teacher's has them. */
  author: 'tool' | 'teacher';
  /** The attempt it was made on (null on an unsubmitted submission). */
  attempt: number | null;
  hidden: boolean;
}

/** Canvas's Lti::Result: what the result service answers (app/serializers/lti/ims/results_serializer.rb). */
export interface CanvasResult {
  lineItemId: string;
  userId: string;
  resultScore: number | null;
  resultMaximum: number | null;
  comment?: string;
  gradingProgress: string;
  activityProgress: string;
  /** Its updated_at: a score timestamped before it is refused. */
  updatedAt: string;
  extensions: Record<string, unknown>;
}

export interface ScoreLogEntry {
  lineItemId: string;
  userId: string;
  status: number;
  body: unknown;
}

export interface AccessToken {
  token: string;
  scopes: string[];
  expiresAt: number;
}

/**
 * agsStatus, agsDelayMs: answers of the AGS and NRPS endpoints; tokenDelayMs: how long the token endpoint waits;
 * noticeHandlersStatus: the answer of the notification service's handler registration; the asset* faults: the
 * Asset Service's downloads (assets.ts), but assetReportStatuses and assetReportDelayMs: the Asset Report Service's
 * answers (asset-reports.ts).
 */
export interface PlatformFaults {
  agsStatus?: number;
  agsDelayMs?: number;
  tokenDelayMs?: number;
  noticeHandlersStatus?: number;
  /** The next this many authorized downloads answer 500 (counted down as they happen). */
  assetFailures?: number;
  /** Each authorized download waits this long before it answers. */
  assetDelayMs?: number;
  /** Authorized downloads never answer: the connection stays open until the client gives up. */
  assetHangs?: boolean;
  /** The file address serves other bytes than the notice declared (same size, another checksum). */
  assetWrongBytes?: boolean;
  /** The file address redirects back to the asset's address, which redirects to it again. */
  assetRedirectLoop?: boolean;
  /** The next report posts are answered with these statuses, one each and in order (taken off as they happen), unread. */
  assetReportStatuses?: number[];
  /** Each authorized report post waits this long before it is judged (a slow report service). */
  assetReportDelayMs?: number;
}

export const DEFAULT_COURSE: Course = { id: 'course-101', title: 'Academic Writing 101', label: 'AW101' };

/** An assignment of the LMS's own (Canvas: an assignment with file upload and text entry), which a document processor can be attached to. */
export interface Activity {
  id: string;
  title: string;
}

export const DEFAULT_ACTIVITIES: Activity[] = [
  { id: '5a1d0c3e-7b2f-4c51-9e0a-d0c5e7a11001', title: 'Essay on rivers' },
];

export const DEFAULT_USERS: DevUser[] = [
  { id: 'instructor-1', name: 'Iris Instructor', email: 'iris.instructor@example.edu', roles: ROLES.instructor },
  { id: 'student-1', name: 'Sam Student', email: 'sam.student@example.edu', roles: ROLES.learner },
  { id: 'student-2', name: 'Noor Student', email: 'noor.student@example.edu', roles: ROLES.learner },
  { id: 'student-3', name: 'Lee Student', email: 'lee.student@example.edu', roles: ROLES.learner },
  { id: 'admin-1', name: 'Ada Administrator', email: 'ada.admin@example.edu', roles: ROLES.admin },
];

/**
 * How the platform's Asset Processor speaks: Canvas's documented names, Blackboard's, or those of this repository's
 * Moodle plugins (dialect.ts).
 */
export type AssetProcessorDialect = 'canvas' | 'blackboard' | 'moodle';

// What tools and students left with the LMS's own assignments (Asset Processor): the records the concerns keep here.

/** A document processor attached to an LMS assignment (asset-processors.ts). */
export interface AttachedProcessor {
  id: string;
  activityId: string;
  title: string;
  text: string | null;
  url: string | null;
  custom: Record<string, string>;
  report: { url: string | null; custom: Record<string, string> } | null;
}

/** A submitted file or text entry, before it is stored (assets.ts). */
export interface NewAsset {
  content: Buffer;
  /** None for a text entry, which Canvas sends as text/html without a file name. */
  filename?: string;
  contentType: string;
  title?: string;
}

export interface StoredAsset extends NewAsset {
  id: string;
  sha256: string;
  storedAt: string;
}

/** A student's submission to an LMS assignment (lms-submissions.ts). */
export interface LmsSubmission {
  /** Canvas's form: the student's submission uuid for the assignment and the attempt, "<uuid>:<attempt>". */
  id: string;
  activityId: string;
  userId: string;
  assetIds: string[];
  submittedAt: string;
}

/** An asset report as a tool posts it (asset-reports.ts). */
export interface AssetReport {
  assetId: string;
  type: string;
  timestamp: string;
  processingProgress: string;
  priority: number;
  visibleToOwner: boolean;
  title?: string;
  result?: string;
  indicationColor?: string;
  indicationAlt?: string;
  comment?: string;
  errorCode?: string;
}

export interface StoredReport {
  activityId: string;
  report: AssetReport;
  /** Keys the tool namespaced with an address, echoed back as Canvas does; others are dropped. */
  extensions: Record<string, unknown>;
  /** The timestamp in microseconds since the epoch: Canvas compares them at that precision. */
  micros: bigint;
}

export interface PlatformMemory {
  rules: PlatformRules;
  /** How its Asset Processor speaks: Canvas's documented names, or Blackboard's (dialect.ts). */
  dialect: AssetProcessorDialect;
  faults: PlatformFaults;
  /** AGS and NRPS requests being held by the agsDelayMs fault right now. */
  heldRequests: number;
  /** Report posts being held by the assetReportDelayMs fault right now. */
  heldReports: number;
  people: Map<string, DevUser>;
  links: Map<string, ResourceLink>;
  lineItems: Map<string, LineItem>;
  /** Keyed by scoreKey(lineItemId, userId): the gradebook cell (Canvas: of the assignment's own line item only). */
  scores: Map<string, Score>;
  attempts: Map<string, number>;
  /** Canvas: each line item's Lti::Result per user, keyed by scoreKey(lineItemId, userId). */
  results: Map<string, CanvasResult>;
  /** Canvas: the assignments (by their line item) whose grades are posted by hand (a manual post policy). */
  postManually: Set<string>;
  scoreLog: ScoreLogEntry[];
  accessTokens: Map<string, AccessToken>;
  /** Every client assertion the token endpoint received, the access token it gave for it (null: refused) and the scopes granted. */
  tokenExchanges: Array<{ clientAssertion: string; accessToken: string | null; scopes: string[] }>;
  deepLinkResults: Array<{ resourceLinkId: string; contentItems: unknown[] }>;
  /** The initial access token an administrator hands a tool with the registration address. */
  registrationToken: string;
  dynamicRegistrations: Array<Record<string, unknown>>;
  nextLineItemId: number;
  /** The tool's notice handler per notice type (Platform Notification Service). */
  noticeHandlers: Map<string, string>;
  /** Document processors attached to the LMS's own assignments. */
  assetProcessors: AttachedProcessor[];
  /** The LMS's own assignments, by id. */
  activities: Map<string, Activity>;
  /** Files and text entries students submitted to the LMS's own assignments, by asset id. */
  assets: Map<string, StoredAsset>;
  /** The key the file addresses the Asset Service redirects to are signed with. */
  fileSecret: Buffer;
  /** Students' submissions to the LMS's own assignments, by submission id ("<uuid>:<attempt>"). */
  lmsSubmissions: Map<string, LmsSubmission>;
  /** The latest asset report per reportKey(assetId, type). */
  assetReports: Map<string, StoredReport>;
  /** Every report a tool posted, with the status it was answered. */
  assetReportLog: Array<{ body: unknown; status: number; /** When it arrived (ms since the epoch). */ at: number }>;
  /** The EULA service's acceptances, by user (Asset Processor). */
  eulaAcceptances: Map<string, { userId: string; accepted: boolean; timestamp: string }>;
}

export function createMemory(options: {
  rules: PlatformRules;
  users: DevUser[];
  dialect?: AssetProcessorDialect;
}): PlatformMemory {
  return {
    rules: options.rules,
    dialect: options.dialect ?? 'canvas',
    faults: {},
    heldRequests: 0,
    heldReports: 0,
    people: new Map(options.users.map((user) => [user.id, user])),
    links: new Map(),
    lineItems: new Map(),
    scores: new Map(),
    attempts: new Map(),
    results: new Map(),
    postManually: new Set(),
    scoreLog: [],
    accessTokens: new Map(),
    tokenExchanges: [],
    deepLinkResults: [],
    registrationToken: randomBytes(16).toString('hex'),
    dynamicRegistrations: [],
    nextLineItemId: 1,
    noticeHandlers: new Map(),
    assetProcessors: [],
    activities: new Map(DEFAULT_ACTIVITIES.map((activity) => [activity.id, activity])),
    assets: new Map(),
    fileSecret: randomBytes(32),
    lmsSubmissions: new Map(),
    assetReports: new Map(),
    assetReportLog: [],
    eulaAcceptances: new Map(),
  };
}

export const scoreKey = (lineItemId: string, userId: string) => `${lineItemId}\n${userId}`;

export type NewResourceLink = {
  id: string;
  title: string;
  custom?: Record<string, string>;
  lineItem?: Omit<LineItem, 'id' | 'resourceLinkId'>;
};

export function createLineItem(memory: PlatformMemory, spec: Omit<LineItem, 'id'>): LineItem {
  const item: LineItem = { ...spec, id: String(memory.nextLineItemId++) };
  memory.lineItems.set(item.id, item);
  if (item.resourceLinkId) memory.links.get(item.resourceLinkId)?.lineItemIds.push(item.id);
  return item;
}

export function addResourceLink(memory: PlatformMemory, link: NewResourceLink): ResourceLink {
  const created: ResourceLink = { id: link.id, title: link.title, custom: link.custom ?? {}, lineItemIds: [] };
  memory.links.set(created.id, created);
  if (link.lineItem) createLineItem(memory, { ...link.lineItem, resourceLinkId: created.id });
  return created;
}

/** A line item's submissionReview as the platform keeps it; undefined when absent, 'invalid' when malformed. */
export function submissionReviewOf(value: unknown): SubmissionReview | undefined | 'invalid' {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'invalid';
  const { url, reachableBy, custom } = value as Record<string, unknown>;
  if (url !== undefined && (typeof url !== 'string' || !URL.canParse(url))) return 'invalid';
  if (
    reachableBy !== undefined &&
    !(Array.isArray(reachableBy) && reachableBy.every((role) => typeof role === 'string'))
  )
    return 'invalid';
  if (
    custom !== undefined &&
    (typeof custom !== 'object' || custom === null || Object.values(custom).some((v) => typeof v !== 'string'))
  )
    return 'invalid';
  return {
    ...(url ? { url } : {}),
    ...(reachableBy ? { reachableBy: reachableBy as string[] } : {}),
    ...(custom ? { custom: custom as Record<string, string> } : {}),
  };
}
