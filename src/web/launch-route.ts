// The launch address: every launch the guard's checks let through (admitLaunch, lti-guard.ts) is verified by the one verifier
// (lti/verify-launch.ts), recorded with its session (lti/launch-session.ts), and handed to the part that answers its
// message type: the resource link and deep linking (launch-handlers.ts), submission review and the Asset Processor's
// report review, settings and EULA (asset-processor-launches.ts). A refusal is one sentence, in the reader's language,
// which any LMS's frame may show (framing.ts).
import { type Response, type Router } from 'express';
import { linkedAssignmentAlongside } from '../assignments/placement.js';
import { ASSET_PROCESSOR_MESSAGES, EULA_MESSAGE } from '../lti/asset-processor.js';
import { DEEP_LINKING_MESSAGE } from '../lti/deep-linking.js';
import { LaunchRefused, LaunchShapeError } from '../lti/launch.js';
import { startLaunchSession } from '../lti/launch-session.js';
import { LTI_ROUTES } from '../lti/provider.js';
import { RESOURCE_LINK_MESSAGE } from '../lti/resource-link.js';
import { LaunchNotVerified, verifyLaunch, type LaunchPassage, type VerifiedLaunch } from '../lti/verify-launch.js';
import type { PlainKey } from '../messages/index.js';
import { answerOwnLaunch, ownClaims, type OwnMessageType } from './asset-processor-launches.js';
import { frameForSession, refusedLaunch } from './framing.js';
import { answerLtiLaunch } from './launch-handlers.js';
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

const ASSET_PROCESSOR_ONLY: readonly string[] = [
  ASSET_PROCESSOR_MESSAGES.reportReview,
  ASSET_PROCESSOR_MESSAGES.settings,
  EULA_MESSAGE,
];

function isOwn(verified: VerifiedLaunch): verified is VerifiedLaunch & { messageType: OwnMessageType } {
  return verified.messageType !== RESOURCE_LINK_MESSAGE && verified.messageType !== DEEP_LINKING_MESSAGE;
}

export function launchRoute(tool: Tool): Router {
  const { logger, settings } = tool;
  const router = toolRouter();

  async function launch(res: Response, passage: LaunchPassage, idToken: string, path: string): Promise<void> {
    const { t } = wordsOf(res);
    const verified = await verifyLaunch(idToken, passage);
    const { messageType } = verified;
    if (ASSET_PROCESSOR_ONLY.includes(messageType) && !settings.assetProcessor)
      throw new LaunchNotVerified(401, 'launch.notOffered', `${messageType} with ASSET_PROCESSOR off`);
    if (!isOwn(verified)) {
      // A resource-link launch's assignment is read in the statement that records the launch.
      const started = await startLaunchSession(tool, verified, path, {
        alongside: messageType === RESOURCE_LINK_MESSAGE ? linkedAssignmentAlongside : undefined,
      });
      tool.metrics.launches.inc({ kind: messageType === DEEP_LINKING_MESSAGE ? 'deep-linking' : 'resource-link' });
      await frameForSession(tool, res, { platformId: started.platformId, launch: started.launch });
      return answerLtiLaunch(tool, res, started);
    }
    if (messageType === EULA_MESSAGE && !settings.assetProcessorEula) {
      logger.warn({ reason: 'EULA launch, the tool has no terms' }, 'LTI launch refused');
      return sendMessage(res, 404, t('apLaunch.couldNotOpen'), t('apLaunch.noTerms'));
    }
    const own = ownClaims(verified);
    if (!own) {
      logger.warn({ messageType, reason: 'its own claims are missing' }, 'LTI launch refused');
      return sendMessage(res, 400, t('apLaunch.couldNotOpen'), t('apLaunch.missing'));
    }
    const started = await startLaunchSession(tool, verified, path, { own });
    await frameForSession(tool, res, { platformId: started.platformId, launch: started.launch });
    return answerOwnLaunch(tool, res, verified, own, started);
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
      if (error instanceof LaunchNotVerified || error instanceof LaunchRefused || error instanceof LaunchShapeError)
        refusedLaunch(res);
      if (error instanceof LaunchNotVerified) {
        logger.warn({ reason: error.detail }, 'LTI launch refused');
        return sendMessage(res, error.status, t('launch.couldNotOpen'), t(error.sentence));
      }
      if (error instanceof LaunchRefused) {
        logger.warn({ reason: error.reason }, 'LTI launch refused');
        const { status, sentence } = REFUSED[error.reason];
        return sendMessage(res, status, t('launch.couldNotOpen'), t(sentence));
      }
      if (error instanceof LaunchShapeError) {
        logger.warn({ reason: error.message }, 'LTI launch refused');
        return sendMessage(res, 400, t('launch.couldNotOpen'), t('launch.incomplete'));
      }
      next(error);
    }
  });
  return router;
}
