// PUT /checker/callback/<secret>: the service announces a finished analysis (spec section 6). The secret in the
// path is the only proof it is the service; a wrong one gets 404 (as if nothing were here) and a log line. The
// body is checked, then only a job is queued (src/submissions/announced-result.ts, in batches when callbacks come in
// bursts): the result is read back from the service, never taken from here.
import express, { type Router } from 'express';
import { CheckerError, parseCallback, type CompletionCallback } from '../checker/index.js';
import { sameSecret } from '../config/secrets.js';
import { ResultAnnouncements } from '../submissions/announced-result.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';
import { bodyFault } from './body-faults.js';
import { answersJson } from './views.js';

export function callbackRoutes(tool: Tool): Router {
  const { logger, metrics } = tool;
  const secret = tool.settings.callbackSecret;
  const router = toolRouter();
  const announcements = new ResultAnnouncements(tool);
  router.put(
    '/checker/callback/:secret',
    answersJson,
    (req, res, next) => {
      if (!sameSecret(String(req.params.secret), secret)) {
        logger.warn({ from: req.ip }, 'Callback with a wrong secret refused');
        metrics.callbacks.inc({ outcome: 'wrong-secret' });
        res.status(404).json({ error: 'Not found.' });
        return;
      }
      next();
    },
    express.json({ limit: '16kb', type: () => true }),
    async (req, res) => {
      let callback: CompletionCallback;
      try {
        callback = parseCallback(req.body);
      } catch (error) {
        if (!(error instanceof CheckerError)) throw error;
        logger.warn({ reason: error.message }, 'Callback with an unreadable body refused');
        metrics.callbacks.inc({ outcome: 'unreadable' });
        res
          .status(400)
          .json({ error: 'The body must be JSON with an integer paper_id (and similarity, download_url, flag).' });
        return;
      }
      const known = await announcements.announce(callback.paperId);
      logger.info(
        { paperId: callback.paperId, failed: callback.failed, known },
        'Callback received; result read-back queued',
      );
      metrics.callbacks.inc({ outcome: 'accepted' });
      res.status(200).json({ received: true });
    },
  );
  // A body the parser could not take is counted here, and answered (JSON) by the app's one handler (body-faults.ts).
  router.use('/checker/callback', ((error, _req, _res, next) => {
    const fault = bodyFault(error);
    if (fault && !fault.aborted) metrics.callbacks.inc({ outcome: 'unreadable' });
    next(error);
  }) as express.ErrorRequestHandler);
  return router;
}
