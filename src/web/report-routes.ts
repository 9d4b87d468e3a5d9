// Reports: /reports/<submission>/<kind>?ltik=... checks who asks (src/reports/visibility.ts), then sends the
// browser on to a short-lived signed address (src/reports/signed-link.ts) that streams the PDF from the service.
// That address works in a new tab, with no cookie and no ltik. /reports/<submission>/<kind>/view?ltik=... makes the
// same check and shows the report in place, in the LMS frame, with pdf.js reading that signed address.
import { pipeline } from 'node:stream/promises';
import { type Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { reportFromService } from '../reports/from-service.js';
import { REPORT_KINDS, reportName, type ReportKind } from '../reports/kinds.js';
import { freshReportPath, validReportLink } from '../reports/signed-link.js';
import { NO_SUCH_REPORT, reportRefusal, scoresShown, type ReportRefusal } from '../reports/visibility.js';
import { bandOf } from '../assignments/settings.js';
import { studentName } from '../submissions/read-models.js';
import { getSubmission, type Submission } from '../submissions/store.js';
import type { Assignment } from '../assignments/store.js';
import { assignmentFor } from '../assignments/access.js';
import { ownPageRefusal } from '../submissions/submit.js';
import { pageAddress } from './page-address.js';
import { requireSession, sessionOf } from './require-session.js';
import { render, sendMessage, wordsOf } from './views.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

const params = z.object({ submissionId: z.string().uuid(), kind: z.enum(REPORT_KINDS) });
const signed = z.object({
  expires: z.coerce.number().int().positive(),
  signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

const refuse = (res: Response, refusal: ReportRefusal) => {
  const words = wordsOf(res);
  sendMessage(res, refusal.status, words.t('report.notAvailable'), words.say(refusal.sentence));
};

export function reportRoutes(tool: Tool): Router {
  const router = toolRouter();

  /** The report the session asks for, once it may open it; otherwise the refusal has been sent and this is null. */
  async function allowedReport(
    req: Request,
    res: Response,
  ): Promise<{ assignment: Assignment; submission: Submission; kind: ReportKind } | null> {
    const found = await askedReport(req, res);
    if ('status' in found) {
      refuse(res, found);
      return null;
    }
    return found;
  }

  async function askedReport(
    req: Request,
    res: Response,
  ): Promise<{ assignment: Assignment; submission: Submission; kind: ReportKind } | ReportRefusal> {
    const input = params.safeParse(req.params);
    if (!input.success) return NO_SUCH_REPORT;
    const session = sessionOf(res);
    const submission = await getSubmission(tool.db, input.data.submissionId);
    if (!submission) return NO_SUCH_REPORT;
    const assignment = await assignmentFor(tool.db, session, submission.assignmentId);
    if (typeof assignment === 'number') return { status: 403, sentence: { key: 'report.otherCourse' } };
    const refusal = reportRefusal(
      { audience: session.launch.audience, userId: session.userId },
      assignment,
      submission,
      input.data.kind,
    );
    return refusal ?? { assignment, submission, kind: input.data.kind };
  }

  router.get('/reports/:submissionId/:kind', requireSession(tool), async (req, res) => {
    const allowed = await allowedReport(req, res);
    if (allowed) res.redirect(303, freshReportPath(tool.encryptionKey, allowed.submission.id, allowed.kind));
  });

  router.get('/reports/:submissionId/:kind/view', requireSession(tool), async (req, res) => {
    const allowed = await allowedReport(req, res);
    if (!allowed) return;
    const session = sessionOf(res);
    const { ltik, launch } = session;
    const { assignment, submission, kind } = allowed;
    // A student of an LMS-owned assignment opened the report from the LMS, and has no assignment page here to go back to.
    const noPageHere = launch.audience === 'learner' && ownPageRefusal(assignment) !== null;
    res.setHeader('Cache-Control', 'private, no-store');
    const words = wordsOf(res);
    // The result in words above the PDF: a screen reader, a slow connection or a PDF that does not load still tell it.
    const scores = scoresShown({ audience: session.launch.audience, userId: session.userId }, assignment, submission);
    res.send(
      render(
        'report-viewer',
        {
          // The student's labels name the report in full ("Similarity report"), which suits a page title for anyone.
          title: words.t(reportName('student', kind)),
          student: await studentName(tool.db, submission.userId),
          fileLabel: submission.fileLabel,
          checkedAt: submission.scoredAt?.toISOString() ?? null,
          similarity: scores.similarity,
          band: scores.similarity === null ? null : bandOf(scores.similarity, assignment.settings.similarityBands),
          aiScore: scores.aiScore,
          pdfUrl: freshReportPath(tool.encryptionKey, submission.id, kind),
          downloadUrl: pageAddress(`/reports/${submission.id}/${kind}`, ltik),
          backUrl: noPageHere ? null : pageAddress(`/assignments/${assignment.id}`, ltik),
        },
        words,
      ),
    );
  });

  router.get('/reports/:submissionId/:kind/file', async (req, res) => {
    const input = params.safeParse(req.params);
    const link = signed.safeParse(req.query);
    if (!input.success || !link.success) return refuse(res, NO_SUCH_REPORT);
    if (!validReportLink(tool.encryptionKey, { ...input.data, ...link.data })) {
      return refuse(res, { status: 403, sentence: { key: 'report.linkExpired' } });
    }
    const report = await reportFromService(tool, input.data.submissionId, input.data.kind);
    if ('status' in report) return refuse(res, report);
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `inline; filename="${report.fileName}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    if (report.contentLength !== null) res.setHeader('Content-Length', String(report.contentLength));
    await pipeline(report.stream, res).catch((error: unknown) =>
      tool.logger.warn({ err: error, submissionId: input.data.submissionId }, 'Report stream interrupted'),
    );
  });
  return router;
}
