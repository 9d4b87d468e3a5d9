// The Asset Report Service of the Asset Processor (lti-notes §4, 2.5): the tool POSTs a report on one asset to the
// notice's report_url with an access token granted the report scope. Checked in Canvas's order and with its answers
// (app/controllers/lti/ims/asset_processor_controller.rb `create_report`, app/models/lti/asset_report.rb): type,
// timestamp and asset first (400), then no newer report of that type on that asset (409), then the fields (422).
// The latest report per (asset, type) is kept; a report with an equal timestamp replaces it, as Canvas's does.
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import type { MountConcern, PlatformContext } from './context.js';
import { DIALECT_SCOPES } from './dialect.js';
import type { AssetReport, StoredReport } from './state.js';
import { requireGrant } from './token.js';

const REPORTS_PATH = '/asset-reports';
export const reportUrl = (platform: PlatformContext, activityId: string) =>
  `${platform.baseUrl}${REPORTS_PATH}/${encodeURIComponent(activityId)}`;

/** Canvas's progresses (Lti::AssetReport::PROGRESSES); any other value is kept but read as NotReady. */
export const PROGRESSES = [
  'Processed',
  'Processing',
  'Pending',
  'PendingManual',
  'Failed',
  'NotProcessed',
  'NotReady',
] as const;
export type Progress = (typeof PROGRESSES)[number];
export const effectiveProgress = (value: string): Progress =>
  (PROGRESSES as readonly string[]).includes(value) ? (value as Progress) : 'NotReady';

/** The spec's short result: Canvas keeps up to 255 characters and shows 15 and an ellipsis beyond 16. */
const RESULT_SHOWN = 16;
const RESULT_KEPT = 255;

export const reportKey = (assetId: string, type: string) => `${assetId}\n${type}`;
/** The report as the service answered it. */
export const reportJson = (stored: StoredReport): AssetReport & Record<string, unknown> => ({
  ...stored.report,
  ...stored.extensions,
});

const ISO_8601 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/;

/** An ISO 8601 date-time in microseconds, or null (Canvas: Time.zone.iso8601, else 400). */
export function isoMicros(value: unknown): bigint | null {
  const match = typeof value === 'string' ? ISO_8601.exec(value) : null;
  if (!match) return null;
  const millis = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(millis)) return null;
  return BigInt(millis) * 1000n + BigInt((match[2] ?? '').padEnd(6, '0').slice(0, 6));
}

const text = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** The report's fields, as Canvas's model validates them. */
function fieldsSchema(platform: PlatformContext) {
  const resultMax = platform.memory.rules === 'canvas' ? RESULT_KEPT : RESULT_SHOWN;
  return z.object({
    type: text(1024),
    processingProgress: z.string({ error: 'must be a non-empty string' }).min(1, 'must be a non-empty string'),
    priority: z
      .number({ error: 'must be an integer from 0 to 5' })
      .int('must be an integer from 0 to 5')
      .min(0, 'must be an integer from 0 to 5')
      .max(5, 'must be an integer from 0 to 5')
      .default(0),
    title: text(1024).optional(),
    result: z.string().max(resultMax, `must be at most ${resultMax} characters`).optional(),
    indicationColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour written #RRGGBB')
      .optional(),
    indicationAlt: text(1024).optional(),
    comment: text(65536).optional(),
    errorCode: text(1024).optional(),
    visibleToOwner: z.boolean({ error: 'must be true or false' }).default(false),
  });
}
const RECOGNIZED = new Set([
  'assetId',
  'type',
  'timestamp',
  'processingProgress',
  'priority',
  'title',
  'result',
  'indicationColor',
  'indicationAlt',
  'comment',
  'errorCode',
  'visibleToOwner',
]);

/** Whether a posted report is the one kept (its answer lost, posted again). */
const sameReport = (kept: StoredReport, fields: Record<string, unknown>) =>
  [...RECOGNIZED].every(
    (name) =>
      JSON.stringify((kept.report as unknown as Record<string, unknown>)[name]) === JSON.stringify(fields[name]),
  );

type Verdict =
  | { status: 201; stored: StoredReport }
  | { status: 400 | 404 | 409 | 422; errors: Array<{ field?: string; message: string }> };

function judge(platform: PlatformContext, activityId: string, body: unknown): Verdict {
  const { memory } = platform;
  if (!memory.assetProcessors.some((processor) => processor.activityId === activityId)) {
    return { status: 404, errors: [{ message: 'No document processor is attached to this assignment.' }] };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { status: 400, errors: [{ message: 'The report must be a JSON object.' }] };
  const fields = body as Record<string, unknown>;
  if (typeof fields.type !== 'string' || fields.type === '')
    return { status: 400, errors: [{ field: 'type', message: 'type must be a non-empty string' }] };
  const micros = isoMicros(fields.timestamp);
  if (micros === null)
    return { status: 400, errors: [{ field: 'timestamp', message: 'A valid ISO8601 timestamp must be provided' }] };
  // Canvas: the asset must belong to a submission of the processor's assignment.
  const assetId = typeof fields.assetId === 'string' ? fields.assetId : '';
  const submission = [...memory.lmsSubmissions.values()].find(
    (s) => s.activityId === activityId && s.assetIds.includes(assetId),
  );
  if (!submission)
    return {
      status: 400,
      errors: [
        { field: 'assetId', message: 'Invalid asset: assetId must be an asset of a submission to this assignment' },
      ],
    };
  const existing = memory.assetReports.get(reportKey(assetId, fields.type));
  if (existing && existing.micros > micros)
    return { status: 409, errors: [{ field: 'timestamp', message: 'An existing report has a newer timestamp' }] };
  // Moodle (moodle/ltiservice_olti report::keep): the same timestamp is refused too, unless the report is the same.
  if (memory.dialect === 'moodle' && existing && existing.micros === micros && !sameReport(existing, fields))
    return { status: 409, errors: [{ field: 'timestamp', message: 'A report with this timestamp is kept already' }] };
  const parsed = fieldsSchema(platform).safeParse(fields);
  if (!parsed.success) {
    return {
      status: 422,
      errors: parsed.error.issues.map((issue) => ({
        field: String(issue.path[0]),
        message: `${String(issue.path[0])} ${issue.message}`,
      })),
    };
  }
  const defined = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined)) as Omit<
    AssetReport,
    'assetId' | 'timestamp'
  >;
  const extensions = Object.fromEntries(
    Object.entries(fields).filter(([key]) => !RECOGNIZED.has(key) && /^https?:\/\//.test(key)),
  );
  return {
    status: 201,
    stored: { activityId, report: { assetId, timestamp: String(fields.timestamp), ...defined }, extensions, micros },
  };
}

export const mountAssetReportService: MountConcern = (router, platform) => {
  const { memory } = platform;
  const json = express.json({ limit: '1mb', strict: false });
  router.post(
    `${REPORTS_PATH}/:activityId`,
    (req, res, grantNext) =>
      requireGrant(platform, DIALECT_SCOPES[platform.memory.dialect].report)(req, res, grantNext),
    async (_req: Request, _res: Response, next) => {
      if (memory.faults.assetReportDelayMs) {
        memory.heldReports += 1;
        await new Promise((resolve) => setTimeout(resolve, memory.faults.assetReportDelayMs)).finally(
          () => (memory.heldReports -= 1),
        );
      }
      next();
    },
    (req: Request, res: Response, next) => {
      json(req, res, (error?: unknown) => {
        if (!error) return next();
        memory.assetReportLog.push({ body: null, status: 400, at: Date.now() });
        res.status(400).json({ errors: [{ message: 'The report is not valid JSON.' }] });
      });
    },
    (req: Request, res: Response) => {
      const forced = memory.faults.assetReportStatuses?.shift();
      if (forced !== undefined) {
        memory.assetReportLog.push({ body: req.body, status: forced, at: Date.now() });
        return void res
          .status(forced)
          .json({ errors: [{ message: `The report service answered ${forced} (switched on by the test).` }] });
      }
      const verdict = judge(platform, String(req.params.activityId), req.body);
      // Canvas answers a kept report with 201; moodle/ltiservice_olti with 200.
      const status = verdict.status === 201 && memory.dialect === 'moodle' ? 200 : verdict.status;
      memory.assetReportLog.push({ body: req.body, status, at: Date.now() });
      if (verdict.status !== 201) return void res.status(verdict.status).json({ errors: verdict.errors });
      memory.assetReports.set(reportKey(verdict.stored.report.assetId, verdict.stored.report.type), verdict.stored);
      res.status(status).json(reportJson(verdict.stored));
    },
  );
};

/** Canvas's `resubmit_available?` of one report: waiting for a person, or failed in a way a new notice can mend. */
export const resubmitAvailable = (report: AssetReport) =>
  report.processingProgress === 'PendingManual' ||
  (report.processingProgress === 'Failed' &&
    (report.errorCode === 'EULA_NOT_ACCEPTED' || report.errorCode === 'DOWNLOAD_FAILED'));
