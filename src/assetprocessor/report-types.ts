// The asset reports the tool posts, by their `type` (an opaque string the platform shows the latest report of, per
// asset and type), and the tool's report kind each opens in a report review launch. The AI report is posted only when
// the assignment checks for AI content, and students see it only where the assignment shows them the AI score.
// Asset Report Service: https://www.imsglobal.org/spec/lti-ap/v1p0 ; Canvas: app/controllers/lti/ims/asset_processor_controller.rb
import type { AssetReportType } from '../lti/messages/report-review.js';
import type { ReportKind } from '../reports/kinds.js';

// The types themselves are the report review launch's to read (lti/messages/report-review.ts).
export type { AssetReportType };

/** The report a review launch of this type opens. */
export const REPORT_KIND_OF: Record<AssetReportType, ReportKind> = { originality: 'similarity', ai: 'ai' };
