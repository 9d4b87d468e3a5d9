// Report downloads (spec 4.4, 5.6): bearer token always; the paper's d_key for all but the grammar report (a
// wrong key, or a paper without results yet, is 404); the grammar report is 400 with the error body when grammar
// was not checked for the paper or its analysis is not done.
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { accountOf } from './auth.js';
import type { SandboxContext } from './context.js';
import { ApiError } from './errors.js';
import { reportPdf, type ReportKind } from './reports.js';
import { integerParam } from './validation.js';

export function reportRoutes(ctx: SandboxContext, guard: RequestHandler): Router {
  const router = Router();

  function send(kind: ReportKind, keyed: boolean) {
    return (req: Request, res: Response) => {
      const paper = ctx.store.paperOf(accountOf(res), integerParam(req.params.paperId, 'paper_id'));
      const findings = paper.findings;
      if (kind === 'grammar') {
        if (!paper.grammarCheck) throw new ApiError(400, 'Grammar check was not enabled for this paper.');
        if (!findings || findings.grammar === null) throw new ApiError(400, 'The grammar report is not ready yet.');
      }
      if (keyed && (!findings || req.params.key !== findings.reportKey))
        throw new ApiError(404, 'No report for this paper and d_key.');
      if (!findings) throw new ApiError(404, 'The report is not ready yet.');
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `inline; filename="${kind}-${paper.id}.pdf"`);
      const pdf = reportPdf(kind, paper, findings, ctx.clock);
      // Headers are out by then: a broken PDF can only end the connection, never a second answer.
      pdf.once('error', (error: Error) => {
        ctx.config.logger(`${kind} report of paper ${paper.id} failed: ${error.message}`);
        res.destroy();
      });
      pdf.pipe(res);
    };
  }

  router.get('/analysis-gateway/api/download2/:paperId/:key', guard, send('similarity', true));
  router.get('/analysis-gateway/api/ai/download2/:paperId/:key', guard, send('ai', true));
  router.get('/analysis-gateway/api/download/summary/:paperId/:key', guard, send('summary', true));
  router.get('/analysis-gateway/api/quality/download/:paperId', guard, send('grammar', false));
  return router;
}
