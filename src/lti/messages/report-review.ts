// The Asset Processor's report review (LtiReportReviewRequest,
// https://www.imsglobal.org/spec/lti-ap/v1p0 "Report review launch"; Canvas: doc/api/document_processor.md):
// someone clicked "View report" beside a file the LMS sent the tool. The message is verified by the one verifier
// (verify-launch.ts); this file holds only what is particular to it, and the table of message types names it
// (index.ts). What the tool then opens is src/assetprocessor/report-review.ts's.
import { z } from 'zod';
import { CLAIM } from '../claims.js';

export const REPORT_REVIEW_MESSAGE = 'LtiReportReviewRequest';

/**
 * The report types the tool posts (its asset reports' `type`, an opaque string the LMS echoes in this launch's
 * assetreport_type claim): a launch for another type names no report of the tool's, and is refused as incomplete.
 */
export const ASSET_REPORT_TYPES = ['originality', 'ai'] as const;
export type AssetReportType = (typeof ASSET_REPORT_TYPES)[number];

const id = z.string().min(1).max(255);

/**
 * What the message must carry besides the core claims: the LMS's assignment (activity), its submission and the
 * asset the report is of, and the report type; for_user, when the LMS sends it, names whose file it is.
 */
export const reportReviewClaims = z
  .object({
    [CLAIM.activity]: z.object({ id }),
    [CLAIM.submission]: z.object({ id }),
    [CLAIM.asset]: z.object({ id }),
    [CLAIM.assetReportType]: z.enum(ASSET_REPORT_TYPES),
  })
  .transform(
    (claims) =>
      ({
        type: REPORT_REVIEW_MESSAGE,
        activityId: claims[CLAIM.activity].id,
        lmsSubmissionId: claims[CLAIM.submission].id,
        assetId: claims[CLAIM.asset].id,
        reportType: claims[CLAIM.assetReportType],
      }) as const,
  );
