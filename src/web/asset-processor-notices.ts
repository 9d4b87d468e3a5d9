// POST /asset-processor/notices: the LMS's Platform Notification Service delivers notices here, public and without a
// session, as {"notices":[{"jwt":"..."}]} (https://www.imsglobal.org/spec/lti-pns/v1p0/main). The body is checked,
// then assetprocessor/notices.ts verifies and keeps them; the answer comes only once they are committed.
import express, { type Router } from 'express';
import { z } from 'zod';
import { MAX_NOTICES, receiveNotices } from '../assetprocessor/notices.js';
import { NOTICE_HANDLER_PATH } from '../assetprocessor/attach.js';
import { isDatabaseUnreachable, isUnstorableText } from '../db/index.js';
import { NoticeRefused, noticePlatform } from '../lti/notice.js';
import { claimShare } from './admission.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';
import { bodyFault } from './body-faults.js';
import { answersJson } from './views.js';

const body = z.object({
  notices: z
    .array(
      z.object({
        jwt: z
          .string()
          .min(1)
          .max(64 * 1024),
      }),
    )
    .min(1)
    .max(MAX_NOTICES),
});

export function assetProcessorNoticeRoutes(tool: Tool): Router {
  const { db, jobs, logger } = tool;
  const router = toolRouter();
  router.post(NOTICE_HANDLER_PATH, answersJson, express.json({ limit: '1mb', type: () => true }), async (req, res) => {
    const parsed = body.safeParse(req.body);
    if (!parsed.success) {
      logger.warn({ reason: parsed.error.issues[0]!.path.join('.') }, 'Notices with an unreadable body refused');
      res
        .status(400)
        .json({ error: `The body must be JSON: {"notices":[{"jwt":"..."}]}, with 1 to ${MAX_NOTICES} notices.` });
      return;
    }
    // The notices count against the share of the notice places of the platform the first names (admission.ts): an
    // LMS sends its own notices in one request.
    const platform = noticePlatform(parsed.data.notices[0]!.jwt);
    if (platform && !claimShare(res, platform)) return;
    try {
      const received = await receiveNotices(
        db,
        jobs,
        parsed.data.notices.map((notice) => notice.jwt),
        logger,
      );
      logger.info(received, 'Notices received');
      res.status(200).json({ received: received.notices });
    } catch (error) {
      if (!(error instanceof NoticeRefused)) throw error;
      logger.warn({ status: error.status, reason: error.detail }, 'Notice refused; nothing kept');
      res.status(error.status).json({ error: error.message });
    }
  });
  router.use(NOTICE_HANDLER_PATH, ((error, _req, res, next) => {
    // A body the parser could not take is the client's fault, answered by the app's one handler (body-faults.ts).
    if (res.headersSent || bodyFault(error)) return next(error);
    // The notices are kept in one transaction and answered only once it is committed: whatever failed, nothing is
    // kept, and the LMS may send them again as they are (a notice kept twice is kept once).
    if (isUnstorableText(error))
      return void res
        .status(400)
        .json({ error: 'A notice holds a character that cannot be stored (a NUL character); nothing was kept.' });
    const unreachable = isDatabaseUnreachable(error);
    logger.error({ err: error }, unreachable ? 'Notices not kept: the database did not answer' : 'Notices not kept');
    res.status(unreachable ? 503 : 500).json({
      error: unreachable
        ? 'The tool could not reach its database, so nothing was kept. Send the notices again in a moment.'
        : "Something went wrong on the tool's side, so nothing was kept. Send the notices again in a moment.",
    });
  }) as express.ErrorRequestHandler);
  return router;
}
