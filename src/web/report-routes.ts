// Reports: /reports/<submission>/<kind>?ltik=... checks who asks (src/reports/visibility.ts), then sends the
// browser on to a short-lived signed address (src/reports/signed-link.ts) that streams the PDF from the service.
// That address works in a new tab, with no cookie and no ltik.
import { pipeline } from 'node:stream/promises';
import { Router, type Response } from 'express';
import { z } from 'zod';
import { reportFromService, type ReportDeps } from '../reports/from-service.js';
import { REPORT_KINDS } from '../reports/kinds.js';
import { freshReportPath, validReportLink } from '../reports/signed-link.js';
import { NO_SUCH_REPORT, reportRefusal, type ReportRefusal } from '../reports/visibility.js';
import { getSubmission } from '../submissions/store.js';
import { assignmentFor } from '../assignments/access.js';
import { requireSession, sessionOf, type SessionDeps } from './require-session.js';
import { sendMessage } from './views.js';

const params = z.object({ submissionId: z.string().uuid(), kind: z.enum(REPORT_KINDS) });
const signed = z.object({ expires: z.coerce.number().int().positive(), signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

const refuse = (res: Response, refusal: ReportRefusal) => sendMessage(res, refusal.status, 'Report not available', refusal.message);

export function reportRoutes(deps: SessionDeps & ReportDeps): Router {
  const router = Router();

  router.get('/reports/:submissionId/:kind', requireSession(deps), async (req, res) => {
    const input = params.safeParse(req.params);
    if (!input.success) return refuse(res, NO_SUCH_REPORT);
    const session = sessionOf(res);
    const submission = await getSubmission(deps.db, input.data.submissionId);
    if (!submission) return refuse(res, NO_SUCH_REPORT);
    const assignment = await assignmentFor(deps.db, session, submission.assignmentId);
    if (typeof assignment === 'number') return refuse(res, { status: 403, message: 'This report belongs to another course.' });
    const refusal = reportRefusal({ audience: session.launch.audience, userId: session.userId }, assignment, submission, input.data.kind);
    if (refusal) return refuse(res, refusal);
    res.redirect(303, freshReportPath(deps.encryptionKey, submission.id, input.data.kind));
  });

  router.get('/reports/:submissionId/:kind/file', async (req, res) => {
    const input = params.safeParse(req.params);
    const link = signed.safeParse(req.query);
    if (!input.success || !link.success) return refuse(res, NO_SUCH_REPORT);
    if (!validReportLink(deps.encryptionKey, { ...input.data, ...link.data })) {
      return refuse(res, { status: 403, message: 'This report link has expired. Open the report again from the assignment.' });
    }
    const report = await reportFromService(deps, input.data.submissionId, input.data.kind);
    if ('status' in report) return refuse(res, report);
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `inline; filename="${report.fileName}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    if (report.contentLength !== null) res.setHeader('Content-Length', String(report.contentLength));
    await pipeline(report.stream, res).catch((error: unknown) => deps.logger.warn({ err: error, submissionId: input.data.submissionId }, 'Report stream interrupted'));
  });
  return router;
}
