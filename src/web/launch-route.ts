// The launch address: every launch the guard's checks let through (admitLaunch, lti-guard.ts) is verified by the one
// verifier (lti/verify-launch.ts), which reads it into the one shape the session keeps (lti/launch.ts); its session
// is recorded (lti/launch-session.ts), and the launch is handed to its message type's line in the one table
// (launches/index.ts). A refusal is one sentence, in the reader's language, which any LMS's frame may show
// (framing.ts).
import { type Response, type Router } from 'express';
import { LaunchRefused } from '../lti/launch.js';
import { startLaunchSession } from '../lti/launch-session.js';
import { LAUNCH_MESSAGES } from '../lti/messages/index.js';
import { LTI_ROUTES } from '../lti/provider.js';
import { LaunchNotVerified, verifyLaunch, type LaunchPassage } from '../lti/verify-launch.js';
import type { PlainKey } from '../messages/index.js';
import { frameForSession, refusedLaunch } from './framing.js';
import { LAUNCH_ANSWERS, answerOf } from './launches/index.js';
import { admitLaunch } from './lti-guard.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';
import { sendMessage, wordsOf } from './views.js';

/** What the person reads of a launch its recording refused (lti/launch.ts), in their language, and its status. */
const REFUSED: Record<LaunchRefused['reason'], { status: number; sentence: PlainKey }> = {
  'state used': { status: 401, sentence: 'launch.stateUsed' },
  'nonce used': { status: 401, sentence: 'launch.notVerified' },
  'unstorable claims': { status: 401, sentence: 'launch.unstorable' },
  'registrations changed': { status: 503, sentence: 'launch.notNow' },
};

export function launchRoute(tool: Tool): Router {
  const { logger, settings } = tool;
  const router = toolRouter();
  // Every kind of launch starts at zero, so that a rate shows from the first scrape on.
  for (const line of Object.values(LAUNCH_ANSWERS)) tool.metrics.launches.inc({ kind: line.kind }, 0);

  async function launch(res: Response, passage: LaunchPassage, idToken: string, path: string): Promise<void> {
    const verified = await verifyLaunch(idToken, passage);
    const type = verified.launch.message.type;
    if (LAUNCH_MESSAGES[type].assetProcessorOnly && !settings.assetProcessor)
      throw new LaunchNotVerified(401, 'launch.notOffered', `${type} with ASSET_PROCESSOR off`);
    const line = answerOf(type);
    const refusal = line.refused?.(tool);
    if (refusal) {
      refusedLaunch(res);
      logger.warn({ messageType: type, reason: refusal.reason }, 'LTI launch refused');
      const { t } = wordsOf(res, verified.launch.locale);
      return sendMessage(res, refusal.status, t(refusal.title), t(refusal.sentence));
    }
    const started = await startLaunchSession(tool, verified, path, line.alongside?.(verified.launch));
    if (passage.firstDeployment)
      logger.info(
        { platformId: started.platformId, deploymentId: passage.deploymentId },
        "A platform registered without a deployment took its first launch's as its own",
      );
    tool.metrics.launches.inc({ kind: line.kind });
    await frameForSession(tool, res, { platformId: started.platformId, launch: started.launch });
    // The pages it answers with speak the launch's language (views.ts).
    Object.assign(res.locals, { launch: started.launch });
    return line.answer(tool, res, started);
  }

  router.all(LTI_ROUTES.launch, async (req, res, next) => {
    const { t } = wordsOf(res);
    // A launch is a form post with an id_token and a state (the guard parsed the form).
    if (req.method !== 'POST') {
      logger.warn({ method: req.method, reason: 'no launch at the launch address' }, 'LTI launch refused');
      return sendMessage(res, 401, t('launch.couldNotOpen'), t('launch.notVerified'));
    }
    try {
      const admitted = await admitLaunch(tool, req, res);
      if (!admitted) return;
      try {
        await launch(res, admitted.passage, admitted.idToken, req.path);
      } catch (error) {
        if (!(error instanceof LaunchRefused && error.reason === 'registrations changed')) throw error;
        // An administrator changed a registration while the checks ran (in any process): nothing was written, and
        // the checks run again against the registrations as they are now. A second change meanwhile is refused.
        const again = await admitLaunch(tool, req, res);
        if (again) await launch(res, again.passage, again.idToken, req.path);
      }
    } catch (error) {
      // A launch refused before its session: one sentence any LMS's frame may show (framing.ts).
      if (error instanceof LaunchNotVerified) {
        refusedLaunch(res);
        logger.warn({ reason: error.detail }, 'LTI launch refused');
        return sendMessage(res, error.status, t('launch.couldNotOpen'), t(error.sentence));
      }
      if (error instanceof LaunchRefused) {
        refusedLaunch(res);
        logger.warn({ reason: error.reason }, 'LTI launch refused');
        const { status, sentence } = REFUSED[error.reason];
        return sendMessage(res, status, t('launch.couldNotOpen'), t(sentence));
      }
      next(error);
    }
  });
  return router;
}
