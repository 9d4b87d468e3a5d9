// What ltijs hands over after it has validated a launch, and what a person sees when a launch is refused.
import type { LtiErrorHandler, LtiHandler } from 'ltijs';
import type { Logger } from '../logger.js';
import { render } from './views.js';

export const onLaunch: LtiHandler = (token, _req, res) => {
  const context = token.platformContext;
  res.send(
    render('launch', {
      resourceTitle: context.resource?.title ?? 'Assignment',
      courseTitle: context.context?.title ?? context.context?.label ?? 'this course',
      userName: token.userInfo?.name ?? token.userInfo?.email ?? 'you',
    }),
  );
};

/** ltijs puts its reason in res.locals.err; the person gets a sentence, the log gets the code. */
export function rejectedLaunch(logger: Logger): LtiErrorHandler {
  return (req, res) => {
    const err = (res.locals as { err?: { status?: number; details?: { message?: string } } }).err;
    const code = err?.details?.message ?? 'UNKNOWN';
    logger.warn({ path: req.path, reason: code }, 'LTI launch refused');
    const unregistered = err === undefined && req.path.endsWith('/login');
    const message = unregistered
      ? 'This LMS is not registered with the tool, or its registration is switched off. Ask your LMS administrator to register it.'
      : code === 'Session not found.' || code === 'IDTOKEN_NOT_FOUND_DB' || code === 'CONTEXTTOKEN_NOT_FOUND_DB'
        ? 'Your session with the tool has ended. Open the assignment again from your course.'
        : 'The launch from your LMS could not be verified. Open the assignment again from your course; if this keeps happening, tell your LMS administrator.';
    res.status(unregistered ? 400 : 401).send(render('message', { title: 'Could not open the assignment', message, tone: 'error' }));
  };
}
