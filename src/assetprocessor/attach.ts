// Attaching the tool to the LMS's own assignment as its Asset Processor: subscribe to the platform's submission
// notices first (the LMS never sends a notice twice, so no submission may come before the subscription), then
// create the assignment of kind "asset-processor" and queue its folder, then hand back the content item the
// deep-linking response carries. A refused subscription creates nothing.
// https://standards.1edtech.org/lti/specifications/proposals/asset-processor ; Canvas: doc/api/document_processor.md
import type { Kysely } from 'kysely';
import type { PlatformLookup } from '../lti/platform.js';
import { queueFolderJob } from '../assignments/folder.js';
import { ASSIGNMENT_PARAMETER } from '../assignments/placement.js';
import type { AssignmentSettings } from '../assignments/settings.js';
import { createAssignment, getAssignment, type Assignment } from '../assignments/store.js';
import type { DatabaseSchema } from '../db/index.js';
import type { Jobs } from '../jobs/index.js';
import { subscribeToSubmissions } from '../lti/notice-service.js';
import { ServiceRefused } from '../lti/platform-service.js';
import type { ReportAddress } from '../lti/claims.js';
import { rememberReportAddress } from './report-address.js';

/** The content item type of an Asset Processor in a deep-linking response. */
export const ASSET_PROCESSOR_ITEM = 'ltiAssetProcessor';

/** Where the LMS posts its notices: public, on the tool's own host (Canvas requires both). */
export const NOTICE_HANDLER_PATH = '/asset-processor/notices';
export const noticeHandlerUrl = (publicUrl: string) => `${publicUrl}${NOTICE_HANDLER_PATH}`;

export interface AttachRequest {
  platform: { id: string; issuer: string; clientId: string };
  courseId: string;
  createdBy: string;
  title: string;
  settings: AssignmentSettings;
  noticeServiceUrl: string;
  /** The LMS's id of its assignment, when it sent one (a draft assignment may have none yet). */
  activityId: string | null;
  /** Where reports go, when the launch names it (Blackboard's notices do not: report-address.ts). */
  reportAddress: ReportAddress | null;
}

export interface AttachDeps {
  db: Kysely<DatabaseSchema>;
  provider: PlatformLookup;
  jobs: Jobs;
  publicUrl: string;
}

/** The processor already attached to this LMS assignment in this course, if any. */
async function attachedTo(db: Kysely<DatabaseSchema>, request: AttachRequest): Promise<Assignment | null> {
  if (request.activityId === null) return null;
  const row = await db
    .selectFrom('assignment')
    .select('id')
    .where('platform_id', '=', request.platform.id)
    .where('course_id', '=', request.courseId)
    .where('kind', '=', 'asset-processor')
    .where('activity_id', '=', request.activityId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row ? getAssignment(db, row.id) : null;
}

/**
 * Subscribes, then creates the assignment and queues its folder; throws ServiceRefused with nothing created.
 * Attaching again to an LMS assignment the tool already processes (the form sent twice, the same deep-linking launch
 * again) hands back the processor it has: notices find one processor per LMS assignment (notices.ts).
 */
export async function attachProcessor(deps: AttachDeps, request: AttachRequest): Promise<Assignment> {
  const platform = await deps.provider.getPlatform(request.platform.issuer, request.platform.clientId);
  if (!platform)
    throw new ServiceRefused(
      'Your LMS is no longer registered with the tool. Ask your LMS administrator.',
      'platform not registered',
    );
  await subscribeToSubmissions(platform, request.noticeServiceUrl, noticeHandlerUrl(deps.publicUrl));
  const existing = await attachedTo(deps.db, request);
  if (existing) {
    await rememberReportAddress(deps.db, deps.jobs, existing.id, request.reportAddress);
    return existing;
  }
  const assignment = await createAssignment(deps.db, {
    platformId: request.platform.id,
    courseId: request.courseId,
    resourceLinkId: null,
    title: request.title,
    createdBy: request.createdBy,
    settings: request.settings,
    kind: 'asset-processor',
    activityId: request.activityId,
  });
  await queueFolderJob(deps.jobs, assignment.id);
  await rememberReportAddress(deps.db, deps.jobs, assignment.id, request.reportAddress);
  return assignment;
}

/**
 * The content item for the deep-linking response (Canvas keeps title, text, custom and report of it): the report
 * review launch comes to the tool's launch address with the assignment's id among its custom parameters.
 */
export function assetProcessorItem(assignment: Assignment, launchUrl: string) {
  const custom = { [ASSIGNMENT_PARAMETER]: assignment.id };
  return {
    type: ASSET_PROCESSOR_ITEM,
    title: assignment.title,
    text: 'Similarity and AI-content check of each submitted file and text entry.',
    custom,
    report: { url: launchUrl, custom },
  };
}
