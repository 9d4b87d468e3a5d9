// A submission as Canvas's SpeedGrader shows it with a document processor (lti-notes §4, 2.3 steps 8 and 9; Canvas:
// app/models/lti/asset_report.rb `info_for_display`, `visible_to_user?`, `resubmit_available?`): each asset with
// each latest report (its colour and the colour's meaning, result, title, progress, comment or error code), "View
// report" on a Processed report (an LtiReportReviewRequest launch: report-review.ts), and "Resubmit all files" when
// Canvas offers it. The student whose work it is sees only Processed reports the tool made visible to them.
import express, { type Request, type Response } from 'express';
import { swatchClass } from './asset-processor-css.js';
import { effectiveProgress } from './asset-reports.js';
import type { MountConcern, PlatformContext } from './context.js';
import { escapeHtml, htmlPage, messagePage } from './html.js';
import { timeHtml } from './clock.js';
import { resubmitAll, resubmitRefusal } from './lms-submissions.js';
import { loginInitiationUrl } from './oidc.js';
import { activityUrl, SUBMISSIONS_PATH as PATH, speedGraderUrl } from './page-urls.js';
import { reportReviewTarget, type ReportReview } from './report-review.js';
import { teaches, type AssetReport, type DevUser, type LmsSubmission, type StoredAsset } from './state.js';

/** Canvas shows 15 characters and an ellipsis of a result longer than 16. */
const RESULT_SHOWN = 16;

/** Canvas's `visible_to_user?`: teachers see every report; the student, the Processed ones made visible to them. */
const visibleTo = (viewer: DevUser, report: AssetReport) =>
  teaches(viewer) || (report.visibleToOwner && effectiveProgress(report.processingProgress) === 'Processed');

/** The viewer's "View report": the login initiation of the report review launch, with the report url as target. */
function viewReportUrl(
  platform: PlatformContext,
  viewer: DevUser,
  submission: LmsSubmission,
  report: AssetReport,
): string | null {
  const processor = platform.memory.assetProcessors.find((p) => p.activityId === submission.activityId);
  if (!processor || effectiveProgress(report.processingProgress) !== 'Processed') return null;
  const review: ReportReview = {
    processorId: processor.id,
    activityId: submission.activityId,
    submissionId: submission.id,
    assetId: report.assetId,
    reportType: report.type,
    forUserId: submission.userId,
  };
  return loginInitiationUrl(platform, {
    userId: viewer.id,
    messageType: 'LtiReportReviewRequest',
    targetLinkUri: reportReviewTarget(platform, processor),
    assetProcessor: { messageType: 'LtiReportReviewRequest', ...review },
  });
}

function renderReport(
  platform: PlatformContext,
  viewer: DevUser,
  submission: LmsSubmission,
  report: AssetReport,
): string {
  const progress = effectiveProgress(report.processingProgress);
  const swatch = report.indicationColor
    ? `<span class="swatch ${swatchClass(report.indicationColor)}" role="img" aria-label="${escapeHtml(report.indicationAlt ?? report.indicationColor)}" title="${escapeHtml(report.indicationAlt ?? report.indicationColor)}"></span>`
    : '';
  const result =
    report.result === undefined
      ? ''
      : report.result.length > RESULT_SHOWN
        ? `<span title="${escapeHtml(report.result)}">${escapeHtml(`${report.result.slice(0, RESULT_SHOWN - 1)}…`)}</span>`
        : escapeHtml(report.result);
  const view = viewReportUrl(platform, viewer, submission, report);
  return `<tr><td>${swatch}${escapeHtml(report.indicationAlt ?? '')}</td><td>${escapeHtml(report.title ?? report.type)}</td><td class="result">${result}</td>
<td>${escapeHtml(progress)}${progress !== report.processingProgress ? ` <span class="muted">(sent as ${escapeHtml(report.processingProgress)})</span>` : ''}${report.priority > 0 ? ` <span class="muted">priority ${report.priority}</span>` : ''}</td>
<td>${escapeHtml(report.comment ?? '')}${report.errorCode ? ` <code>${escapeHtml(report.errorCode)}</code>` : ''}</td>
<td>${view ? `<a class="button" href="${escapeHtml(view)}">View report</a>` : ''}</td></tr>`;
}

function renderAsset(
  platform: PlatformContext,
  viewer: DevUser,
  submission: LmsSubmission,
  asset: StoredAsset,
): string {
  const reports = [...platform.memory.assetReports.values()]
    .map((stored) => stored.report)
    .filter((report) => report.assetId === asset.id && visibleTo(viewer, report));
  const rows = reports.map((report) => renderReport(platform, viewer, submission, report)).join('');
  return `<section class="asset"><h3>${escapeHtml(asset.filename ?? 'Text entry')} <small class="muted">${escapeHtml(asset.contentType)}, ${asset.content.length} bytes</small></h3>
${rows ? `<table><thead><tr><th>Indication</th><th>Report</th><th>Result</th><th>Progress</th><th>Comment</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="muted">No report.</p>'}</section>`;
}

function renderSubmission(platform: PlatformContext, viewer: DevUser, submission: LmsSubmission): string {
  const { memory } = platform;
  const student = memory.people.get(submission.userId)?.name ?? submission.userId;
  const activity = memory.activities.get(submission.activityId)?.title ?? submission.activityId;
  const assets = submission.assetIds
    .map((id) => renderAsset(platform, viewer, submission, memory.assets.get(id)!))
    .join('');
  const resubmit =
    teaches(viewer) && resubmitRefusal(platform, submission) === null
      ? `<form method="post" action="${escapeHtml(`${platform.baseUrl}${PATH}/${encodeURIComponent(submission.id)}/resubmit`)}"><input type="hidden" name="viewer" value="${escapeHtml(viewer.id)}"><button type="submit">Resubmit all files</button></form>`
      : '';
  return htmlPage(
    platform.baseUrl,
    `${student}: ${activity}`,
    `<p><a href="${escapeHtml(activityUrl(platform, submission.activityId))}">${escapeHtml(activity)}</a></p>
<h1>${escapeHtml(student)}: ${escapeHtml(activity)}</h1>
<p class="muted">Submission ${escapeHtml(submission.id)}, ${timeHtml(submission.submittedAt)}. Viewing as ${escapeHtml(viewer.name)}.</p>
<h2>Document processors</h2>${assets}${resubmit}`,
  );
}

const sentence = (platform: PlatformContext, res: Response, status: number, title: string, text: string) =>
  void res.status(status).send(messagePage(platform.baseUrl, title, text, status >= 400));

export const mountSpeedGrader: MountConcern = (router, platform) => {
  const { memory } = platform;
  /** The submission and a viewer allowed to see it (a teacher, or the student who submitted), or the refusal sent. */
  const open = (
    req: Request,
    res: Response,
    viewerId: unknown,
  ): { submission: LmsSubmission; viewer: DevUser } | null => {
    const submission = memory.lmsSubmissions.get(String(req.params.submissionId));
    const viewer = memory.people.get(String(viewerId ?? ''));
    if (!submission)
      return (sentence(platform, res, 404, 'No such submission', 'This course has no such submission.'), null);
    if (!viewer || (!teaches(viewer) && viewer.id !== submission.userId))
      return (
        sentence(
          platform,
          res,
          403,
          'Not yours',
          "Only the course's teachers and the student who submitted see a submission.",
        ),
        null
      );
    return { submission, viewer };
  };

  router.get(`${PATH}/:submissionId`, (req: Request, res: Response) => {
    const opened = open(req, res, req.query.viewer);
    if (opened) res.send(renderSubmission(platform, opened.viewer, opened.submission));
  });

  router.post(
    `${PATH}/:submissionId/resubmit`,
    express.urlencoded({ extended: false, limit: '4kb' }),
    async (req: Request, res: Response) => {
      const opened = open(req, res, (req.body as Record<string, unknown> | undefined)?.viewer);
      if (!opened) return;
      if (!teaches(opened.viewer))
        return sentence(platform, res, 403, 'Teachers only', "Only a teacher resubmits a student's files.");
      const resent = await resubmitAll(platform, opened.submission.id);
      if (!resent.sent) return sentence(platform, res, 409, 'Not resubmitted', resent.reason);
      const back = `<p><a href="${escapeHtml(speedGraderUrl(platform, opened.submission.id, opened.viewer.id))}">Back to the submission</a></p>`;
      const answer = resent.status === 0 ? resent.body : `The tool's notice handler answered ${resent.status}.`;
      res.send(
        htmlPage(
          platform.baseUrl,
          'Resubmitted',
          `<h1>Resubmitted</h1><p>Sent the submission's notice again. ${escapeHtml(answer)}</p>${back}`,
        ),
      );
    },
  );
};
