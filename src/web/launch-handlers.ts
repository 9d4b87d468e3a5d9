// What ltijs hands over after it has validated a launch: record who launched, decide which assignment and which
// side of it they open, and send them there with their ltik. Also the page for a refused launch.
import type { LaunchHandler, RejectedLaunchHandler } from '../lti/platform.js';
import { linkedAssignmentAlongside, placeLaunch } from '../assignments/placement.js';
import { keepAssetProcessorContext } from '../lti/asset-processor-launch.js';
import { LaunchRefused, LaunchShapeError, readLaunch, recordLaunch, type Launch } from '../lti/launch.js';
import type { Logger } from '../logger.js';
import type { ToolMetrics } from '../metrics.js';
import { assetProcessorAttachPage, wantsAssetProcessor } from './asset-processor-attach.js';
import { ltikOf, type SessionDeps } from './require-session.js';
import { frameForSession, namePlatform } from './framing.js';
import { ltikPlatform } from '../lti/session.js';
import type { PlainKey, Words } from '../messages/index.js';
import { render, sendMessage, wordsOf } from './views.js';

/** What the person reads of a launch its recording refused (lti/launch.ts), in their language. */
const REFUSED: Record<LaunchRefused['reason'], PlainKey> = {
  'state used': 'launch.stateUsed',
  'nonce used': 'launch.notVerified',
  'no nonce': 'launch.notVerified',
  'unstorable claims': 'launch.unstorable',
};

export function assignmentPath(assignmentId: string, ltik: string): string {
  return `/assignments/${assignmentId}?ltik=${encodeURIComponent(ltik)}`;
}

function page(words: Words, title: string, message: string): string {
  return render('message', { title, message, tone: 'error' }, words);
}

export function launchHandlers(
  deps: Pick<SessionDeps, 'db'> & { logger: Logger; metrics: ToolMetrics; assetProcessor: boolean },
) {
  const { db, logger } = deps;
  // With ASSET_PROCESSOR off, a launch that would take a processor gets the ordinary picker.
  const wantsProcessor = (launch: Launch) => deps.assetProcessor && wantsAssetProcessor(launch);

  const onLaunch: LaunchHandler = async (token, req, res, next) => {
    try {
      const ltik = String(res.locals.ltik);
      let launch = readLaunch(token);
      const words = wordsOf(res, launch.locale);
      const { t } = words;
      // ltijs has validated the posted token: what it does not keep of an Asset Processor's launch is kept here.
      if (wantsProcessor(launch))
        launch = {
          ...launch,
          assetProcessor: keepAssetProcessorContext(String((req.body as { id_token?: unknown }).id_token ?? '')),
        };
      deps.metrics.launches.inc({
        kind: launch.messageType === 'LtiDeepLinkingRequest' ? 'deep-linking' : 'resource-link',
      });
      // A resource-link launch's assignment is read in the statement that records the launch.
      const identity = await recordLaunch(
        db,
        launch,
        launch.messageType === 'LtiResourceLinkRequest' ? linkedAssignmentAlongside(launch) : null,
      );
      await frameForSession(deps, res, { platformId: identity.platformId, launch });
      if (launch.audience === 'none') {
        res.status(403).send(page(words, t('refused.notForYourRole'), t('launch.roleNoAccess')));
        return;
      }
      if (launch.messageType === 'LtiDeepLinkingRequest') {
        if (launch.audience !== 'instructor') {
          res.status(403).send(page(words, t('refused.notForYourRole'), t('launch.instructorsAdd')));
          return;
        }
        if (wantsProcessor(launch)) {
          res.send(assetProcessorAttachPage({ ltik, launch }, words));
          return;
        }
        res.send(
          render(
            'deep-link',
            {
              ltik,
              title: launch.resourceLink?.title ?? t('deepLink.defaultTitle'),
              courseTitle: launch.context?.title ?? '',
            },
            words,
          ),
        );
        return;
      }
      if (!launch.context || !launch.resourceLink || !identity.courseId) {
        res.status(400).send(page(words, t('launch.fromAssignmentTitle'), t('launch.fromAssignment')));
        return;
      }
      const placement = await placeLaunch(db, launch, { ...identity, courseId: identity.courseId });
      if (placement.created)
        logger.info(
          { assignmentId: placement.assignment.id, audience: launch.audience },
          'Assignment created on its first launch',
        );
      res.redirect(303, assignmentPath(placement.assignment.id, ltik));
    } catch (error) {
      // One sentence, which the platform the launch names may frame (the guard named it; framing.ts).
      const { t } = wordsOf(res);
      if (error instanceof LaunchRefused) {
        logger.warn({ reason: error.reason }, 'LTI launch refused');
        return sendMessage(res, 401, t('launch.couldNotOpen'), t(REFUSED[error.reason]));
      }
      if (error instanceof LaunchShapeError) {
        logger.warn({ reason: error.message }, 'LTI launch refused');
        return sendMessage(res, 400, t('launch.couldNotOpen'), t('launch.incomplete'));
      }
      next(error);
    }
  };

  /** ltijs puts its reason in res.locals.err; the person gets a sentence, the log gets the code. */
  const onRejectedLaunch: RejectedLaunchHandler = (req, res) => {
    const err = (res.locals as { err?: { details?: { message?: string } } }).err;
    const code = err?.details?.message ?? 'UNREGISTERED_OR_INACTIVE_PLATFORM';
    logger.warn({ path: req.path, reason: code }, 'LTI launch refused');
    const { t } = wordsOf(res);
    // One sentence, which the platform the launch (named by the guard) or the session key names may frame
    // (framing.ts): an unknown message type or an ended session shows in the LMS's frame.
    const ltik = ltikOf(req);
    if (ltik) namePlatform(res, ltikPlatform(ltik));
    if (err === undefined) return sendMessage(res, 400, t('launch.couldNotOpen'), t('launch.unregistered'));
    const ended = ['Session not found.', 'IDTOKEN_NOT_FOUND_DB', 'CONTEXTTOKEN_NOT_FOUND_DB'].includes(code);
    // ltijs's word for a message type it does not take (one of the Asset Processor's with ASSET_PROCESSOR off, say).
    const notOffered = code === 'NO_MESSAGE_TYPE_CLAIM';
    sendMessage(
      res,
      401,
      t('launch.couldNotOpen'),
      t(ended ? 'session.ended' : notOffered ? 'launch.notOffered' : 'launch.notVerified'),
    );
  };

  return { onLaunch, onDeepLinking: onLaunch, onRejectedLaunch };
}
