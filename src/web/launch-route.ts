// The launch address: the posted form goes through the one chain (lti/launch-flow.ts: admit, verify, check,
// record), and this file renders its outcome: the platform-storage page, a refusal (one sentence in the reader's
// language, which the LMS's frame may show, lti-guard.ts sendRefusal), or the launch handed to its message type's
// line in the one table (launches/index.ts).
import { type Router } from 'express';
import { LAUNCH_MESSAGES } from '../lti/messages/index.js';
import { runLaunch } from '../lti/launch-flow.js';
import { LTI_MOUNT_PATH, LTI_ROUTES } from '../lti/provider.js';
import { allowFramingBy, frameForSession, namePlatform } from './framing.js';
import { claimedPlatformFrameOrigins } from '../lti/frame-origins.js';
import { LAUNCH_ANSWERS, answerOf } from './launches/index.js';
import { readUnverified } from '../lti/unverified-jwt.js';
import { claimShare } from './admission.js';
import { sendRefusal } from './lti-guard.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';
import { render, sendMessage, wordsOf } from './views.js';

export function launchRoute(tool: Tool): Router {
  const { logger, settings } = tool;
  const router = toolRouter();
  // Every kind of launch starts at zero, so that a rate shows from the first scrape on.
  for (const line of Object.values(LAUNCH_ANSWERS)) tool.metrics.launches.inc({ kind: line.kind }, 0);
  const deps = { db: tool.db, encryptionKey: tool.encryptionKey, toolOrigin: new URL(settings.publicUrl).origin };

  router.all(LTI_ROUTES.launch, async (req, res) => {
    // A launch is a form post with an id_token and a state (the guard parsed the form).
    if (req.method !== 'POST') {
      logger.warn({ method: req.method, reason: 'no launch at the launch address' }, 'LTI launch refused');
      const { t } = wordsOf(res);
      return sendMessage(res, 401, t('launch.couldNotOpen'), t('launch.notVerified'));
    }
    // The launch counts against the share of the launch places of the platform it names (admission.ts): one whose keys
    // host hangs, or a flood of tokens naming it, leaves the other schools' launches their places.
    const idToken = (req.body as { id_token?: unknown } | undefined)?.id_token;
    const named = typeof idToken === 'string' ? readUnverified(idToken)?.names : null;
    if (named && !claimShare(res, `${named.issuer} ${named.clientId}`)) return;
    const request = {
      body: req.body,
      cookies: req.headers.cookie,
      fetchSite: typeof req.headers['sec-fetch-site'] === 'string' ? req.headers['sec-fetch-site'] : undefined,
      origin: req.headers.origin,
      path: req.path,
    };
    const outcome = await runLaunch(deps, request, (launch) => {
      const type = launch.message.type;
      if (LAUNCH_MESSAGES[type].assetProcessorOnly && !settings.assetProcessor)
        return { status: 401, sentence: { key: 'launch.notOffered' }, reason: `${type} with ASSET_PROCESSOR off` };
      const refusal = answerOf(type).refused?.(tool);
      return refusal
        ? {
            status: refusal.status,
            title: refusal.title,
            sentence: { key: refusal.sentence },
            reason: refusal.reason,
            log: { messageType: type },
            locale: launch.locale,
          }
        : null;
    });
    if (outcome.outcome === 'refused') return sendRefusal(logger, res, outcome);
    if (outcome.outcome === 'check storage') {
      // This page runs in the LMS's iframe, before anything is verified: the platform the token names may frame it.
      namePlatform(res, outcome.platform);
      allowFramingBy(res, await claimedPlatformFrameOrigins(tool.db, outcome.platform));
      return res.send(
        render(
          'platform-storage',
          {
            mode: 'get',
            target: outcome.storage.target,
            origin: outcome.storage.origin,
            key: outcome.key,
            value: outcome.state,
            launch: { action: `${LTI_MOUNT_PATH}${LTI_ROUTES.launch}`, idToken: outcome.idToken, state: outcome.state },
          },
          wordsOf(res),
        ),
      );
    }
    const { started } = outcome;
    if (outcome.firstDeployment)
      logger.info(
        { platformId: started.platformId, deploymentId: started.launch.deploymentId },
        "A platform registered without a deployment took its first launch's as its own",
      );
    const line = answerOf(started.launch.message.type);
    tool.metrics.launches.inc({ kind: line.kind });
    await frameForSession(tool, res, { platformId: started.platformId, launch: started.launch });
    // The pages it answers with speak the launch's language (views.ts).
    Object.assign(res.locals, { launch: started.launch });
    return line.answer(tool, res, started);
  });
  return router;
}
