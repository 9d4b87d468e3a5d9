// How the dev platform's Asset Processor speaks: as Canvas documents it, or as Blackboard Learn Ultra was seen to
// deliver it. Each is taken from the LMS's own published material, not from the tool:
// - canvas: canvas-lms doc/api/document_processor.md ("Submission"): standard `lti/claim/…` names, the asset's
//   `sha256_checksum` in base64, the report address in every notice.
// - blackboard: blackboard/BBDN-LTI-Tool-Provider-Node docs/pns.md, a real notice from 2026-07-31: the activity and
//   submission under `lti-aip/claim/…` as {activity_id} and {submission_id}, the assets under
//   `lti-ap/claim/assetservice` with `checksum` (base64 of an MD5), the course's context claim, no assetreport claim
//   (the report address comes with the Asset Processor's launches, under `lti-ap/claim/assetreport`, as the same
//   repository's server/src/app/processor.js reads it), and the scopes `lti-ap/scope/asset.readonly` and
//   `lti-ap/scope/report`.
// - moodle: Moodle has no Asset Processor; this repository's plagiarism plugin makes one
//   (moodle/plagiarism_olti/classes/local/notice.php `notice::claims`, kept as
//   test/fixtures/lms/moodle/asset-processor-submission-notice.json): the standard `lti/claim/…` names, the course's
//   context and the activity's title in every notice, `sha256_checksum` in base64, the report address in every
//   notice, the `lti-ap/scope/…` scope names (moodle/ltiservice_olti grants those), and tool_platform "moodle".
import { createHash } from 'node:crypto';
import { LTI_CLAIM } from './context.js';
import type { AssetProcessorDialect } from './state.js';

export type { AssetProcessorDialect };

const LTI_AP = 'https://purl.imsglobal.org/spec/lti-ap';
const LTI_AIP_CLAIM = 'https://purl.imsglobal.org/spec/lti-aip/claim';

/** The name Blackboard gives a text entry's file. */
export const BLACKBOARD_TEXT_ENTRY = 'Submission_Text.html';

/** The Asset Service's and the Asset Report Service's scopes, as each LMS names them. */
export const DIALECT_SCOPES: Record<AssetProcessorDialect, { asset: string; report: string }> = {
  canvas: {
    asset: 'https://purl.imsglobal.org/spec/lti/scope/asset.readonly',
    report: 'https://purl.imsglobal.org/spec/lti/scope/report',
  },
  blackboard: { asset: `${LTI_AP}/scope/asset.readonly`, report: `${LTI_AP}/scope/report` },
  moodle: { asset: `${LTI_AP}/scope/asset.readonly`, report: `${LTI_AP}/scope/report` },
};

/** The asset's checksum field as the LMS writes it. */
export function checksumField(dialect: AssetProcessorDialect, content: Buffer): Record<string, string> {
  return dialect === 'blackboard'
    ? { checksum: createHash('md5').update(content).digest('base64') }
    : { sha256_checksum: createHash('sha256').update(content).digest('base64') };
}

export interface NoticeParts {
  activityId: string;
  submissionId: string;
  assets: unknown[];
  reportUrl: string;
  context: Record<string, unknown>;
  activityTitle?: string;
  userId: string;
  issuer: string;
}

/** The notice's own claims (besides the core claims, the notice claim and for_user) in the dialect. */
export function noticeClaims(dialect: AssetProcessorDialect, parts: NoticeParts): Record<string, unknown> {
  const scopes = DIALECT_SCOPES[dialect];
  if (dialect === 'blackboard') {
    return {
      [`${LTI_AIP_CLAIM}/activity`]: { activity_id: parts.activityId },
      [`${LTI_AIP_CLAIM}/submission`]: { submission_id: parts.submissionId },
      [`${LTI_AP}/claim/assetservice`]: { assets: parts.assets, scope: [scopes.asset] },
      [`${LTI_CLAIM}/context`]: parts.context,
    };
  }
  if (dialect === 'moodle') {
    return {
      [`${LTI_CLAIM}/for_user`]: {
        user_id: parts.userId,
        roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
      },
      [`${LTI_CLAIM}/context`]: {
        ...parts.context,
        type: ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering'],
      },
      [`${LTI_CLAIM}/activity`]: {
        id: parts.activityId,
        ...(parts.activityTitle !== undefined ? { title: parts.activityTitle } : {}),
      },
      [`${LTI_CLAIM}/submission`]: { id: parts.submissionId },
      [`${LTI_CLAIM}/assetservice`]: { scope: [scopes.asset], assets: parts.assets },
      [`${LTI_CLAIM}/assetreport`]: { scope: [scopes.report], report_url: parts.reportUrl },
      [`${LTI_CLAIM}/tool_platform`]: {
        product_family_code: 'moodle',
        version: '2024100706.00',
        guid: new URL(parts.issuer).host,
        url: parts.issuer,
      },
    };
  }
  return {
    [`${LTI_CLAIM}/activity`]: { id: parts.activityId },
    [`${LTI_CLAIM}/submission`]: { id: parts.submissionId },
    [`${LTI_CLAIM}/assetreport`]: { scope: [scopes.report], report_url: parts.reportUrl },
    [`${LTI_CLAIM}/assetservice`]: { scope: [scopes.asset], assets: parts.assets },
  };
}

/** What the Asset Processor's launches (attach, settings) add in the dialect: Blackboard names the report address there. */
export function launchReportClaim(dialect: AssetProcessorDialect, reportUrl: string): Record<string, unknown> {
  return dialect === 'blackboard'
    ? { [`${LTI_AP}/claim/assetreport`]: { report_url: reportUrl, scope: [DIALECT_SCOPES.blackboard.report] } }
    : {};
}
