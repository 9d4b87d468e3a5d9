// What a grade post needs to know, read from the database when it runs: where the user's score goes (the
// platform and its LMS's quirks, the assignment's columns, the user's LTI id) and the submission's state.
import type { Kysely } from 'kysely';
import { storedSettings, type AssignmentSettings } from '../assignments/settings.js';
import type { DatabaseSchema, SubmissionState } from '../db/index.js';
import { lmsLanguage } from '../assignments/language.js';
import type { Language } from '../i18n/index.js';
import { ownsCell } from '../submissions/cell-owner.js';
import type { PlatformRef } from './ags.js';
import { quirksFor, type PlatformQuirks } from './platform-quirks.js';

/** Where a user's score goes: the platform, the assignment's column settings and the user's LTI id. */
export interface ColumnContext {
  userSubject: string;
  platformId: string;
  platform: PlatformRef;
  /** By the product family stored with the platform's registration. */
  quirks: PlatformQuirks;
  assignmentId: string;
  assignmentTitle: string;
  resourceLinkId: string | null;
  lineItemUrl: string | null;
  lineItemsUrl: string | null;
  similarityLineItemUrl: string | null;
  gradeColumn: AssignmentSettings['gradeColumn'];
  /** Whether a result's comment may name the similarity (the LMS shows it to the student): results shown on scoring. */
  commentShowsSimilarity: boolean;
  /** The language a result's comment is written in (assignments/language.ts). */
  commentLanguage: Language;
}

export interface GradeContext extends ColumnContext {
  submissionId: string;
  state: SubmissionState;
  gradeState: string;
  attempt: number;
  /** Whether this attempt owns the student's gradebook cell (submissions/cell-owner.ts). */
  ownsCell: boolean;
  similarity: number | null;
  submittedAt: Date;
  /** The final score last about to be posted, and the one the gradebook acknowledged (null: none). */
  sentScore: number | null;
  acknowledgedScore: number | null;
  /** Whether the LMS has recorded this attempt (a post with new_submission acknowledged). */
  attemptRecorded: boolean;
  /** The column this attempt's comment reached (null: none yet). */
  commentColumn: string | null;
}

/** The column's fields of the assignment `a`, its platform `p` and its user `u`, as one select list. */
const COLUMN_FIELDS = [
  'u.subject',
  'p.id as platform_id',
  'p.issuer',
  'p.client_id',
  'p.product_family',
  'a.id as assignment_id',
  'a.title',
  'a.resource_link_id',
  'a.line_item_url',
  'a.line_items_url',
  'a.similarity_line_item_url',
  'a.settings',
  'a.lms_language',
] as const;

/** What COLUMN_FIELDS read. */
interface ColumnRow {
  subject: string;
  platform_id: string;
  issuer: string;
  client_id: string;
  product_family: string | null;
  assignment_id: string;
  title: string;
  resource_link_id: string | null;
  line_item_url: string | null;
  line_items_url: string | null;
  similarity_line_item_url: string | null;
  settings: unknown;
  lms_language: string | null;
}

function gradebookSettings(
  settings: AssignmentSettings,
): Pick<ColumnContext, 'gradeColumn' | 'commentShowsSimilarity'> {
  return {
    gradeColumn: settings.gradeColumn,
    commentShowsSimilarity: settings.resultsVisibleTo === 'students-after-scoring',
  };
}

function toColumn(row: ColumnRow): ColumnContext {
  return {
    userSubject: row.subject,
    platformId: row.platform_id,
    platform: { issuer: row.issuer, clientId: row.client_id },
    quirks: quirksFor(row.product_family),
    assignmentId: row.assignment_id,
    assignmentTitle: row.title,
    resourceLinkId: row.resource_link_id,
    lineItemUrl: row.line_item_url,
    lineItemsUrl: row.line_items_url,
    similarityLineItemUrl: row.similarity_line_item_url,
    ...gradebookSettings(storedSettings.parse(row.settings)),
    commentLanguage: lmsLanguage(row.lms_language),
  };
}

export async function loadColumn(
  db: Kysely<DatabaseSchema>,
  assignmentId: string,
  userId: string,
): Promise<ColumnContext | null> {
  const row = await db
    .selectFrom('assignment as a')
    .innerJoin('platform as p', 'p.id', 'a.platform_id')
    .innerJoin('lti_user as u', (join) => join.on('u.id', '=', userId).onRef('u.platform_id', '=', 'p.id'))
    .select(COLUMN_FIELDS)
    .where('a.id', '=', assignmentId)
    .executeTakeFirst();
  return row ? toColumn(row) : null;
}

/** Where the submission's cell stands now: the part of a grade context a post checks again right before it sends. */
export type CellStanding = Pick<GradeContext, 'state' | 'ownsCell' | 'similarity'>;

/**
 * The standing's fields of the submission `s`, read the same way by the context and by the check against it (a
 * post sends only while the two are equal).
 */
const STANDING_FIELDS = ['s.state', 's.similarity'] as const;
const ownsCellField = () => ownsCell('s').as('owns_cell');

function toStanding(row: { state: SubmissionState; similarity: string | null; owns_cell: unknown }): CellStanding {
  return {
    state: row.state,
    ownsCell: row.owns_cell === true,
    similarity: row.similarity === null ? null : Number(row.similarity),
  };
}

export async function cellStanding(db: Kysely<DatabaseSchema>, submissionId: string): Promise<CellStanding | null> {
  const row = await db
    .selectFrom('submission as s')
    .select(STANDING_FIELDS)
    .select(ownsCellField())
    .where('s.id', '=', submissionId)
    .executeTakeFirst();
  return row ? toStanding(row) : null;
}

/** The submission with its column, in one statement. */
export async function loadContext(db: Kysely<DatabaseSchema>, submissionId: string): Promise<GradeContext | null> {
  const row = await db
    .selectFrom('submission as s')
    .innerJoin('assignment as a', 'a.id', 's.assignment_id')
    .innerJoin('platform as p', 'p.id', 'a.platform_id')
    .innerJoin('lti_user as u', (join) => join.onRef('u.id', '=', 's.user_id').onRef('u.platform_id', '=', 'p.id'))
    .select([
      's.id',
      's.grade_state',
      's.attempt',
      's.submitted_at',
      's.grade_sent_score',
      's.grade_acknowledged_score',
      's.gradebook_attempt_recorded',
      's.gradebook_comment_column',
    ])
    .select(STANDING_FIELDS)
    .select(ownsCellField())
    .select(COLUMN_FIELDS)
    .where('s.id', '=', submissionId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    ...toColumn(row),
    ...toStanding(row),
    submissionId: row.id,
    gradeState: row.grade_state,
    attempt: row.attempt,
    submittedAt: row.submitted_at,
    sentScore: row.grade_sent_score === null ? null : Number(row.grade_sent_score),
    acknowledgedScore: row.grade_acknowledged_score === null ? null : Number(row.grade_acknowledged_score),
    attemptRecorded: row.gradebook_attempt_recorded,
    commentColumn: row.gradebook_comment_column,
  };
}
