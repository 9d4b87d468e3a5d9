// What ltijs hands over after it has validated a launch: record who launched, decide which assignment and which
// side of it they open, and send them there with their ltik. Also the page for a refused launch.
import type { LtiErrorHandler, LtiHandler } from 'ltijs';
import { placeLaunch } from '../assignments/placement.js';
import { keepAssetProcessorContext } from '../lti/asset-processor-launch.js';
import { LaunchRefused, LaunchShapeError, readLaunch, recordLaunch, type Launch } from '../lti/launch.js';
import type { Logger } from '../logger.js';
import type { ToolMetrics } from '../metrics.js';
import { assetProcessorAttachPage, wantsAssetProcessor } from './asset-processor-attach.js';
import { allowSessionFraming, type SessionDeps } from './require-session.js';
import { render } from './views.js';

export function assignmentPath(assignmentId: string, ltik: string): string {
  return `/assignments/${assignmentId}?ltik=${encodeURIComponent(ltik)}`;
}

function page(title: string, message: string): string {
  return render('message', { title, message, tone: 'error' });
}

export function launchHandlers(deps: Pick<SessionDeps, 'db'> & { logger: Logger; metrics: ToolMetrics; assetProcessor: boolean }) {
  const { db, logger } = deps;
  // With ASSET_PROCESSOR off, a launch that would take a processor gets the ordinary picker.
  const wantsProcessor = (launch: Launch) => deps.assetProcessor && wantsAssetProcessor(launch);

  const onLaunch: LtiHandler = async (token, req, res, next) => {
    try {
      const ltik = String(res.locals.ltik);
      let launch = readLaunch(token);
      // ltijs has validated the posted token: what it does not keep of an Asset Processor's launch is kept here.
      if (wantsProcessor(launch)) launch = { ...launch, assetProcessor: keepAssetProcessorContext(String((req.body as { id_token?: unknown }).id_token ?? '')) };
      deps.metrics.launches.inc({ kind: launch.messageType === 'LtiDeepLinkingRequest' ? 'deep-linking' : 'resource-link' });
      const identity = await recordLaunch(db, launch);
      await allowSessionFraming(deps, res, { platformId: identity.platformId, launch });
      if (launch.audience === 'none') {
        res.status(403).send(page('Not available for your role', 'This tool is for the instructors and students of the course. Your role in this course does not give access to it; if it should, ask your instructor to check your role in the course.'));
        return;
      }
      if (launch.messageType === 'LtiDeepLinkingRequest') {
        if (launch.audience !== 'instructor') {
          res.status(403).send(page('Not available for your role', 'Only instructors can add the tool to a course. Ask an instructor of the course to add it.'));
          return;
        }
        if (wantsProcessor(launch)) {
          res.send(assetProcessorAttachPage({ ltik, launch }));
          return;
        }
        res.send(render('deep-link', { ltik, title: launch.resourceLink?.title ?? 'Similarity check', courseTitle: launch.context?.title ?? '' }));
        return;
      }
      if (!launch.context || !launch.resourceLink || !identity.courseId) {
        res.status(400).send(page('Open the tool from an assignment', 'The tool works inside a course assignment. Open it from the assignment in your course.'));
        return;
      }
      const placement = await placeLaunch(db, launch, { ...identity, courseId: identity.courseId });
      if (placement.created) logger.info({ assignmentId: placement.assignment.id, audience: launch.audience }, 'Assignment created on its first launch');
      res.redirect(303, assignmentPath(placement.assignment.id, ltik));
    } catch (error) {
      if (error instanceof LaunchRefused) {
        logger.warn({ reason: error.reason }, 'LTI launch refused');
        res.status(401).send(page('Could not open the assignment', error.sentence));
        return;
      }
      if (error instanceof LaunchShapeError) {
        logger.warn({ reason: error.message }, 'LTI launch refused');
        res.status(400).send(page('Could not open the assignment', 'Your LMS sent a launch without information the tool needs. Tell your LMS administrator.'));
        return;
      }
      next(error);
    }
  };

  /** ltijs puts its reason in res.locals.err; the person gets a sentence, the log gets the code. */
  const onRejectedLaunch: LtiErrorHandler = (req, res) => {
    const err = (res.locals as { err?: { details?: { message?: string } } }).err;
    const code = err?.details?.message ?? 'UNREGISTERED_OR_INACTIVE_PLATFORM';
    logger.warn({ path: req.path, reason: code }, 'LTI launch refused');
    if (err === undefined) {
      res.status(400).send(page('Could not open the assignment', 'This LMS is not registered with the tool, or its registration is switched off. Ask your LMS administrator to register it.'));
      return;
    }
    const ended = ['Session not found.', 'IDTOKEN_NOT_FOUND_DB', 'CONTEXTTOKEN_NOT_FOUND_DB'].includes(code);
    res
      .status(401)
      .send(
        page(
          'Could not open the assignment',
          ended
            ? 'Your session with the tool has ended. Open the assignment again from your course.'
            : 'The launch from your LMS could not be verified. Open the assignment again from your course; if this keeps happening, tell your LMS administrator.',
        ),
      );
  };

  return { onLaunch, onDeepLinking: onLaunch, onRejectedLaunch };
}
