// What ltijs refuses at its own routes (a request at one of its paths with neither a launch nor a session): ltijs
// puts its reason in res.locals.err; the person gets a sentence, the log gets the code.
import type { Logger } from '../observe/logger.js';
import type { RejectedLaunchHandler } from '../lti/platform.js';
import { ltikPlatform } from '../lti/ltik.js';
import { namePlatform } from './framing.js';
import { ltikOf } from './require-session.js';
import { sendMessage, wordsOf } from './views.js';

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
