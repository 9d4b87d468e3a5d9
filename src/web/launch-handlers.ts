// A verified resource-link or deep-linking launch (launch-route.ts): decide which assignment and which side of it
// the person opens, and send them there with their ltik. Also the page for what ltijs refuses at its own routes.
import type { Response } from 'express';
import type { RejectedLaunchHandler } from '../lti/platform.js';
import { placeLaunch } from '../assignments/placement.js';
import { DEEP_LINKING_MESSAGE } from '../lti/deep-linking.js';
import type { Launch } from '../lti/launch.js';
import type { StartedSession } from '../lti/launch-session.js';
import type { Logger } from '../logger.js';
import { assetProcessorAttachPage, wantsAssetProcessor } from './asset-processor-attach.js';
import { dashboardPath } from './instructor-pages.js';
import { ltikOf } from './require-session.js';
import { namePlatform } from './framing.js';
import { ltikPlatform } from '../lti/session.js';
import type { Words } from '../messages/index.js';
import { render, sendMessage, wordsOf } from './views.js';
import type { Tool } from './tool-context.js';

export function assignmentPath(assignmentId: string, ltik: string): string {
  return `/assignments/${assignmentId}?ltik=${encodeURIComponent(ltik)}`;
}

/**
 * Where a launch lands, in the one redirect after the launch's POST: an instructor on the assignment's dashboard
 * (not on /assignments/<id>, which would send them on there in a second hop), anyone else on the assignment's page.
 */
export function landingPath(assignmentId: string, audience: Launch['audience'], ltik: string): string {
  return audience === 'instructor' ? dashboardPath(assignmentId, ltik) : assignmentPath(assignmentId, ltik);
}

function page(words: Words, title: string, message: string): string {
  return render('message', { title, message, tone: 'error' }, words);
}

/** The page a verified resource-link or deep-linking launch opens, its session started (launch-session.ts). */
export async function answerLtiLaunch(tool: Tool, res: Response, started: StartedSession): Promise<void> {
  const { launch, ltik } = started;
  const words = wordsOf(res, launch.locale);
  const { t } = words;
  // ASSET_PROCESSOR=on: a deep-linking launch that asks for a processor gets the attach page, else the picker.
  const wantsProcessor = (launch: Launch) => tool.settings.assetProcessor && wantsAssetProcessor(launch);
  if (launch.audience === 'none') {
    res.status(403).send(page(words, t('refused.notForYourRole'), t('launch.roleNoAccess')));
    return;
  }
  if (launch.messageType === DEEP_LINKING_MESSAGE) {
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
  if (!launch.context || !launch.resourceLink || !started.courseId) {
    res.status(400).send(page(words, t('launch.fromAssignmentTitle'), t('launch.fromAssignment')));
    return;
  }
  const placement = await placeLaunch(tool.db, launch, { ...started, courseId: started.courseId });
  if (placement.created)
    tool.logger.info(
      { assignmentId: placement.assignment.id, audience: launch.audience },
      'Assignment created on its first launch',
    );
  res.redirect(303, landingPath(placement.assignment.id, launch.audience, ltik));
}

/**
 * What ltijs refuses at its own routes (a request at one of its paths with neither a launch nor a session): ltijs
 * puts its reason in res.locals.err; the person gets a sentence, the log gets the code.
 */
export function rejectedLaunchHandler(logger: Logger): RejectedLaunchHandler {
  return (req, res) => {
    const err = (res.locals as { err?: { details?: { message?: string } } }).err;
    const code = err?.details?.message ?? 'UNREGISTERED_OR_INACTIVE_PLATFORM';
    logger.warn({ path: req.path, reason: code }, 'LTI launch refused');
    const { t } = wordsOf(res);
    // One sentence, which the platform the session key names may frame (framing.ts).
    const ltik = ltikOf(req);
    if (ltik) namePlatform(res, ltikPlatform(ltik));
    if (err === undefined) return sendMessage(res, 400, t('launch.couldNotOpen'), t('launch.unregistered'));
    const ended = ['Session not found.', 'IDTOKEN_NOT_FOUND_DB', 'CONTEXTTOKEN_NOT_FOUND_DB'].includes(code);
    sendMessage(res, 401, t('launch.couldNotOpen'), t(ended ? 'session.ended' : 'launch.notVerified'));
  };
}
