// A submission notice as Canvas sends it to the tool's notice handler (doc/api/document_processor.md; claims:
// https://www.imsglobal.org/spec/lti-pns/v1p0/main), or as Blackboard or this repository's Moodle plugin does (dialect.ts): one notice per attached processor and submission, each of the
// submission's files an asset. `submissionNotice` is what the platform signs; tests change a claim to forge one.
import { randomUUID } from 'node:crypto';
import { reportUrl } from './asset-reports.js';
import { LTI_CLAIM, type PlatformContext } from './context.js';
import { noticeClaims } from './dialect.js';

export interface NoticeAsset {
  asset_id: string;
  url: string;
  sha256_checksum?: string;
  /** Blackboard's: base64 of the MD5. */
  checksum?: string;
  size?: number;
  content_type?: string;
  title?: string;
  filename?: string;
  timestamp?: string;
}

export interface SubmissionNoticeOptions {
  activityId: string;
  submissionId: string;
  userId: string;
  assets: NoticeAsset[];
  /** A new id each time unless given (a notice sent again keeps its id). */
  noticeId?: string;
  reportUrl?: string;
  custom?: Record<string, unknown>;
}

export function submissionNotice(platform: PlatformContext, options: SubmissionNoticeOptions): Record<string, unknown> {
  const { course } = platform;
  return {
    iss: platform.issuer,
    aud: platform.clientId,
    azp: platform.clientId,
    nonce: randomUUID(),
    [`${LTI_CLAIM}/version`]: '1.3.0',
    [`${LTI_CLAIM}/deployment_id`]: platform.deploymentId,
    [`${LTI_CLAIM}/notice`]: {
      id: options.noticeId ?? randomUUID(),
      timestamp: new Date().toISOString(),
      type: 'LtiAssetProcessorSubmissionNotice',
    },
    [`${LTI_CLAIM}/for_user`]: { user_id: options.userId },
    ...noticeClaims(platform.memory.dialect, {
      activityId: options.activityId,
      submissionId: options.submissionId,
      assets: options.assets,
      reportUrl: options.reportUrl ?? reportUrl(platform, options.activityId),
      context: { id: course.id, label: course.label, title: course.title },
      userId: options.userId,
      issuer: platform.issuer,
      ...(platform.memory.activities.get(options.activityId)?.title !== undefined
        ? { activityTitle: platform.memory.activities.get(options.activityId)!.title }
        : {}),
    }),
    ...(options.custom ? { [`${LTI_CLAIM}/custom`]: options.custom } : {}),
  };
}
