// Reports: /reports/<submission>/<kind>?ltik=... checks who asks (the student who owns it, where the assignment
// lets students see results; an instructor of the course), then sends the browser on to a short-lived signed
// address that streams the PDF from the service. That address works in a new tab, with no cookie and no ltik.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import type { PostgresLtiStorage } from '../lti/storage.js';
import type { Logger } from '../logger.js';
import { REPORT_KINDS, type PaperServices, type ReportKind } from '../checker/index.js';
import { getSubmission } from '../submissions/store.js';
import { assignmentFor } from './assignment-access.js';
import { requireSession, sessionOf } from './session.js';
import { resultsVisible, studentMayOpen } from './student-pages.js';
import { sendMessage } from './views.js';

const LINK_LIFETIME_SECONDS = 300;
const params = z.object({ submissionId: z.string().uuid(), kind: z.enum(REPORT_KINDS) });
const signed = z.object({ expires: z.coerce.number().int().positive(), signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

function sign(secret: string, submissionId: string, kind: ReportKind, expires: number): string {
  return createHmac('sha256', `reports:${secret}`).update(`${submissionId}:${kind}:${expires}`).digest('base64url');
}

/** The signed address of a report, good until `expires` (seconds since the epoch). */
export function signedReportPath(secret: string, submissionId: string, kind: ReportKind, expires: number): string {
  return `/reports/${submissionId}/${kind}/file?expires=${expires}&signature=${sign(secret, submissionId, kind, expires)}`;
}

export function reportRoutes(deps: { db: Kysely<DatabaseSchema>; storage: PostgresLtiStorage; encryptionKey: string; services: PaperServices; logger: Logger }): Router {
  const router = Router();
  const refuse = (res: import('express').Response, status: number, message: string) =>
    sendMessage(res, status, 'Report not available', message);

  router.get('/reports/:submissionId/:kind', requireSession(deps), async (req, res) => {
    const input = params.safeParse(req.params);
    if (!input.success) return refuse(res, 404, 'There is no such report.');
    const session = sessionOf(res);
    const submission = await getSubmission(deps.db, input.data.submissionId);
    if (!submission) return refuse(res, 404, 'There is no such report.');
    const assignment = await assignmentFor(deps.db, session, submission.assignmentId);
    if (typeof assignment === 'number') return refuse(res, 403, 'This report belongs to another course.');
    const instructor = session.launch.audience === 'instructor';
    const owner = session.launch.audience === 'learner' && submission.userId === session.userId;
    if (!instructor && !owner) return refuse(res, 403, 'This report is of another student\'s paper.');
    if (!instructor && !(resultsVisible(assignment) && studentMayOpen(assignment, input.data.kind))) {
      return refuse(res, 403, 'Your instructor has not made this report available to you.');
    }
    if (submission.paperId === null || (submission.state !== 'scored' && submission.state !== 'graded')) {
      return refuse(res, 409, 'The report is not ready: the paper is still being checked.');
    }
    const expires = Math.floor(Date.now() / 1000) + LINK_LIFETIME_SECONDS;
    res.redirect(303, signedReportPath(deps.encryptionKey, submission.id, input.data.kind, expires));
  });

  router.get('/reports/:submissionId/:kind/file', async (req, res) => {
    const input = params.safeParse(req.params);
    const link = signed.safeParse(req.query);
    if (!input.success || !link.success) return refuse(res, 404, 'There is no such report.');
    const expected = Buffer.from(sign(deps.encryptionKey, input.data.submissionId, input.data.kind, link.data.expires));
    if (!timingSafeEqual(expected, Buffer.from(link.data.signature)) || link.data.expires < Date.now() / 1000) {
      return refuse(res, 403, 'This report link has expired. Open the report again from the assignment.');
    }
    const submission = await getSubmission(deps.db, input.data.submissionId);
    const folder = submission ? await deps.db.selectFrom('assignment').select('folder_id').where('id', '=', submission.assignmentId).executeTakeFirst() : undefined;
    if (!submission || submission.paperId === null || !folder?.folder_id) return refuse(res, 404, 'There is no such report.');
    let report;
    try {
      const service = await deps.services.forAssignment(submission.assignmentId);
      report = await service.report(input.data.kind, { folderId: Number(folder.folder_id), paperId: submission.paperId, reportKey: submission.reportKey });
    } catch (error) {
      const failure = deps.services.classify(error);
      deps.logger.warn({ submissionId: submission.id, kind: input.data.kind, reason: failure.message }, 'Report download failed');
      return refuse(res, input.data.kind === 'grammar' ? 404 : 502, input.data.kind === 'grammar' ? 'There is no grammar report for this paper (grammar checking was off, or it is not ready).' : `The checking service did not send the report: ${failure.message}`);
    }
    const name = `${input.data.kind}-report-${submission.fileLabel.replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9 _-]/g, '').trim().replace(/\s+/g, '-').slice(0, 60) || 'paper'}.pdf`;
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `inline; filename="${name}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    if (report.contentLength !== null) res.setHeader('Content-Length', String(report.contentLength));
    await pipeline(report.stream, res).catch((error: unknown) => deps.logger.warn({ err: error, submissionId: submission.id }, 'Report stream interrupted'));
  });
  return router;
}
