// A report review launch (LtiReportReviewRequest): someone clicked "View report" beside a file the LMS sent the
// tool. The launch names the LMS's assignment (activity), its submission, the asset and the report type; the tool
// finds that file among the assets of its processor on this LMS assignment and opens the report of the submission
// that stands for it. Instructors of the course see it always; the student only for their own file (the LMS's user
// id the notice named), and only as the assignment lets students see reports (reports/visibility.ts decides that).
// Its claims are read by lti/messages/report-review.ts.
import type { Kysely } from 'kysely';
import { getAssignment } from '../assignments/store.js';
import type { DatabaseSchema, SubmissionState } from '../db/index.js';
import type { Audience } from '../lti/roles.js';
import type { ReportKind } from '../reports/kinds.js';
import { reportRefusal } from '../reports/visibility.js';
import { getSubmission } from '../submissions/store.js';
import { REPORT_KIND_OF, type AssetReportType } from './report-types.js';
import type { Sentence } from '../i18n/index.js';

export interface ReviewRequest {
  platformId: string;
  /** The course the launch came from: only its assignments' files are found. */
  courseId: string | null;
  activityId: string;
  lmsSubmissionId: string;
  assetId: string;
  reportType: AssetReportType;
  viewer: { subject: string; userId: string; audience: Audience };
}

export type ReviewOutcome =
  | { kind: 'open'; submissionId: string; reportKind: ReportKind }
  | { kind: 'refused'; status: 403 | 404; sentence: Sentence }
  /** The file is not checked yet: its state, as a reader understands it. */
  | { kind: 'checking'; state: string }
  /** The file could not be checked: why, in a sentence. */
  | { kind: 'failed'; comment: string };

/** Where a file is on its way, in words: announced by the LMS, then as its submission goes. */
const FETCHING = 'the LMS announced it and the tool is fetching it';
const SUBMISSION_STATE: Partial<Record<SubmissionState, string>> = {
  received: 'the tool has it and will send it to the checking service',
  uploading: 'it is being sent to the checking service',
  processing: 'the checking service is analysing it',
};

export async function reviewReport(db: Kysely<DatabaseSchema>, request: ReviewRequest): Promise<ReviewOutcome> {
  const { viewer } = request;
  if (viewer.audience === 'none') return { kind: 'refused', status: 403, sentence: { key: 'report.roleNoAccess' } };
  if (request.courseId === null) return { kind: 'refused', status: 403, sentence: { key: 'report.noCourse' } };
  const asset = await db
    .selectFrom('lms_asset')
    .innerJoin('assignment', 'assignment.id', 'lms_asset.assignment_id')
    .select([
      'lms_asset.state',
      'lms_asset.submission_id',
      'lms_asset.lms_user_id',
      'lms_asset.error_comment',
      'lms_asset.error_code',
      'assignment.id as assignment_id',
    ])
    .where('assignment.platform_id', '=', request.platformId)
    .where('assignment.course_id', '=', request.courseId)
    .where('assignment.kind', '=', 'asset-processor')
    .where('assignment.activity_id', '=', request.activityId)
    .where('lms_asset.lms_submission_id', '=', request.lmsSubmissionId)
    .where('lms_asset.asset_id', '=', request.assetId)
    .executeTakeFirst();
  if (!asset) return { kind: 'refused', status: 404, sentence: { key: 'report.unknownFile' } };
  if (viewer.audience === 'learner' && viewer.subject !== asset.lms_user_id) {
    return { kind: 'refused', status: 403, sentence: { key: 'report.othersFile' } };
  }
  if (asset.state === 'failed')
    return {
      kind: 'failed',
      comment: asset.error_comment ?? `The file could not be checked (${asset.error_code ?? 'no reason given'}).`,
    };
  if (asset.state === 'received' || asset.submission_id === null) return { kind: 'checking', state: FETCHING };
  const [assignment, submission] = await Promise.all([
    getAssignment(db, asset.assignment_id),
    getSubmission(db, asset.submission_id),
  ]);
  if (!assignment || !submission) return { kind: 'refused', status: 404, sentence: { key: 'report.paperRemoved' } };
  if (submission.state === 'rejected' || submission.state === 'failed') {
    return { kind: 'failed', comment: submission.failureReason ?? 'The checking service could not check this file.' };
  }
  const waiting = SUBMISSION_STATE[submission.state];
  if (waiting) return { kind: 'checking', state: waiting };
  const reportKind = REPORT_KIND_OF[request.reportType];
  const refusal = reportRefusal(
    { audience: viewer.audience, userId: viewer.userId },
    assignment,
    submission,
    reportKind,
  );
  if (refusal) {
    if (refusal.status === 403 || refusal.status === 404)
      return { kind: 'refused', status: refusal.status, sentence: refusal.sentence };
    return { kind: 'checking', state: SUBMISSION_STATE.processing! };
  }
  return { kind: 'open', submissionId: submission.id, reportKind };
}
