// Students' submissions to the LMS's own assignments and the notices they send (lti-notes §4, 2.3 steps 5 and 9;
// Canvas: doc/api/document_processor.md). A submission keeps its files and text entry as assets; the platform signs
// one LtiAssetProcessorSubmissionNotice per processor attached to the assignment and POSTs them together, as
// {"notices":[{"jwt":…}]} (https://www.imsglobal.org/spec/lti-pns/v1p0/main), to the handler the tool registered.
// Canvas does not retry a notice; a teacher's "Resubmit all files" sends it again.
import { randomUUID } from 'node:crypto';
import { resubmitAvailable } from './asset-reports.js';
import { noticeAsset, storeAsset } from './assets.js';
import type { PlatformContext } from './context.js';
import { submissionNotice, type NoticeAsset } from './notices.js';
import type { AssetReport, LmsSubmission } from './state.js';

export const SUBMISSION_NOTICE = 'LtiAssetProcessorSubmissionNotice';
/** How long the platform waits for the tool's handler. */
const HANDLER_TIMEOUT_MS = 30_000;

export interface SubmitOptions {
  activityId: string;
  userId: string;
  files?: Array<{ content: Buffer; filename: string; contentType: string }>;
  /** A text entry, as the LMS keeps it: HTML. */
  text?: string;
  submissionId?: string;
}

/** What the tool's notice handler answered (status 0: it could not be reached). */
export interface NoticeDelivery {
  status: number;
  body: string;
}

/** The submission cannot be made (400) or its notice cannot be sent (409): a sentence saying why. */
export class SubmissionRefused extends Error {
  constructor(
    readonly status: 400 | 409,
    message: string,
  ) {
    super(message);
    this.name = 'SubmissionRefused';
  }
}

/** The student's next attempt: the uuid of their earlier attempts at this assignment, or a new one. */
function nextSubmissionId(platform: PlatformContext, activityId: string, userId: string): string {
  const earlier = [...platform.memory.lmsSubmissions.values()].filter(
    (s) => s.activityId === activityId && s.userId === userId,
  );
  return `${earlier[0]?.id.split(':')[0] ?? randomUUID()}:${earlier.length + 1}`;
}

/** Why no notice can go to the tool for this assignment, or null. */
function undeliverable(platform: PlatformContext, activityId: string): string | null {
  if (!platform.memory.assetProcessors.some((processor) => processor.activityId === activityId)) {
    return `No document processing app is attached to the assignment ${activityId}, so no notice would be sent.`;
  }
  if (!platform.memory.noticeHandlers.has(SUBMISSION_NOTICE))
    return 'The tool has not registered a handler for submission notices.';
  return null;
}

async function sendNotices(
  platform: PlatformContext,
  submission: LmsSubmission,
  assets: NoticeAsset[],
): Promise<NoticeDelivery> {
  const { memory } = platform;
  const processors = memory.assetProcessors.filter((processor) => processor.activityId === submission.activityId);
  const jwts = await Promise.all(
    processors.map((processor) =>
      platform.keys.sign(
        submissionNotice(platform, {
          activityId: submission.activityId,
          submissionId: submission.id,
          userId: submission.userId,
          assets,
          ...(Object.keys(processor.custom).length ? { custom: processor.custom } : {}),
        }),
      ),
    ),
  );
  try {
    const answer = await fetch(memory.noticeHandlers.get(SUBMISSION_NOTICE)!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ notices: jwts.map((jwt) => ({ jwt })) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(HANDLER_TIMEOUT_MS),
    });
    return { status: answer.status, body: await answer.text() };
  } catch (error) {
    return { status: 0, body: `The tool's notice handler could not be reached: ${(error as Error).message}` };
  }
}

/** A student submits to the LMS's assignment: the files and text entry become assets, and the tool is told. */
export async function submitToActivity(
  platform: PlatformContext,
  options: SubmitOptions,
): Promise<NoticeDelivery & { submissionId: string; assets: NoticeAsset[] }> {
  const refused = undeliverable(platform, options.activityId);
  if (refused) throw new SubmissionRefused(409, refused);
  const files = options.files ?? [];
  if (files.length === 0 && !options.text)
    throw new SubmissionRefused(400, 'A submission needs a file or a text entry.');
  const assets = [
    ...files.map((file) => storeAsset(platform, file)),
    // Canvas sends a text entry as an HTML asset without a file name, titled (doc/api/document_processor.md's
    // example: "AnonymousGraded", an assignment's name).
    ...(options.text
      ? [
          storeAsset(platform, {
            content: Buffer.from(options.text, 'utf8'),
            contentType: 'text/html',
            title: platform.memory.activities.get(options.activityId)?.title ?? 'Text entry',
          }),
        ]
      : []),
  ];
  const submission: LmsSubmission = {
    id: options.submissionId ?? nextSubmissionId(platform, options.activityId, options.userId),
    activityId: options.activityId,
    userId: options.userId,
    assetIds: assets.map((asset) => asset.asset_id),
    submittedAt: new Date().toISOString(),
  };
  platform.memory.lmsSubmissions.set(submission.id, submission);
  return { submissionId: submission.id, assets, ...(await sendNotices(platform, submission, assets)) };
}

/** The latest reports on the submission's assets, every type. */
export function submissionReports(platform: PlatformContext, submission: LmsSubmission): AssetReport[] {
  return [...platform.memory.assetReports.values()]
    .filter((stored) => submission.assetIds.includes(stored.report.assetId))
    .map((stored) => stored.report);
}

/**
 * Why "Resubmit all files" is not offered for this submission, or null: Canvas offers it while the processor has
 * sent no report, or when a report waits for a person or failed in a way a new notice can mend.
 */
export function resubmitRefusal(platform: PlatformContext, submission: LmsSubmission): string | null {
  const reports = submissionReports(platform, submission);
  if (reports.length === 0 || reports.some(resubmitAvailable)) return undeliverable(platform, submission.activityId);
  return `Resubmitting is offered only while no report has arrived, or when a report is PendingManual or Failed with EULA_NOT_ACCEPTED or DOWNLOAD_FAILED; this submission's reports are ${reports
    .map((report) => `${report.type}: ${report.processingProgress}${report.errorCode ? ` (${report.errorCode})` : ''}`)
    .join(', ')}.`;
}

/** Canvas's "Resubmit all files": a new notice for the same submission and assets. */
export async function resubmitAll(
  platform: PlatformContext,
  submissionId: string,
): Promise<({ sent: true } & NoticeDelivery) | { sent: false; reason: string }> {
  const submission = platform.memory.lmsSubmissions.get(submissionId);
  if (!submission) return { sent: false, reason: `No submission ${submissionId}.` };
  const reason = resubmitRefusal(platform, submission);
  if (reason) return { sent: false, reason };
  const assets = submission.assetIds.map((id) => noticeAsset(platform, platform.memory.assets.get(id)!));
  return { sent: true, ...(await sendNotices(platform, submission, assets)) };
}
