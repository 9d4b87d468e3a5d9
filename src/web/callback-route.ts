// PUT /checker/callback/<secret>: the service announces a finished analysis (spec section 6). The secret in the
// path is the only proof it is the service; a wrong one gets 404 (as if nothing were here) and a log line. The
// body is checked, then only a job is queued: the result is read back from the service, never taken from here.
import { timingSafeEqual } from 'node:crypto';
import express, { Router } from 'express';
import type { Kysely } from 'kysely';
import { CheckerError, parseCallback, type CompletionCallback } from '../checker/index.js';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import type { Logger } from '../logger.js';
import { submissionsForPaper } from '../submissions/pipeline.js';

/** A few seconds for the upload job to record the paper when the callback outruns the upload's own answer. */
const EARLY_CALLBACK_DELAY_SECONDS = 5;

export function callbackRoutes(deps: { db: Kysely<DatabaseSchema>; jobs: Jobs; secret: string; logger: Logger }): Router {
  const router = Router();
  const expected = Buffer.from(deps.secret);
  router.put('/checker/callback/:secret', (req, res, next) => {
    const given = Buffer.from(String(req.params.secret));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      deps.logger.warn({ from: req.ip }, 'Callback with a wrong secret refused');
      res.status(404).json({ error: 'Not found.' });
      return;
    }
    next();
  }, express.json({ limit: '16kb', type: () => true }), async (req, res) => {
    let callback: CompletionCallback;
    try {
      callback = parseCallback(req.body);
    } catch (error) {
      if (!(error instanceof CheckerError)) throw error;
      deps.logger.warn({ reason: error.message }, 'Callback with an unreadable body refused');
      res.status(400).json({ error: 'The body must be JSON with an integer paper_id (and similarity, download_url, flag).' });
      return;
    }
    const paperId = callback.paperId;
    // The callback names a paper id but not the account: every service account registers this same address, and
    // two services may hand out the same id. So each submission holding a paper with that id is read back from
    // its own account (pipeline.ts readResult); only the account whose paper finished settles its submission, the
    // others read "pending" and change nothing. (A callback that outruns the recording of its paper while another
    // account's submission holds the same id is caught by the poller.)
    const submissionIds = await submissionsForPaper(deps.db, paperId);
    // Keyed by submission (or paper): a repeated callback finds its job already queued and adds nothing.
    for (const submissionId of submissionIds) await deps.jobs.send(QUEUES.result, { submissionId }, { key: submissionId });
    if (submissionIds.length === 0) await deps.jobs.send(QUEUES.result, { paperId }, { key: `paper-${paperId}`, startAfterSeconds: EARLY_CALLBACK_DELAY_SECONDS });
    deps.logger.info({ paperId, failed: callback.failed, known: submissionIds.length }, 'Callback received; result read-back queued');
    res.status(200).json({ received: true });
  });
  // Malformed JSON from the body parser: a 400 with a sentence, not the generic error page.
  router.use('/checker/callback', ((error, _req, res, next) => {
    if ((error as { type?: string }).type === 'entity.parse.failed') return void res.status(400).json({ error: 'The body is not valid JSON.' });
    if ((error as { type?: string }).type === 'entity.too.large') return void res.status(413).json({ error: 'The body is too large for a callback.' });
    next(error);
  }) as express.ErrorRequestHandler);
  return router;
}
