// The platform's EULA service (Asset Processor): where an LtiEulaRequest launch says it is, and the tool telling it
// that a user accepted the tool's terms: POST {url}/user {userId, accepted, timestamp} with a token of the eula/user
// scope; the platform answers 201. Canvas: doc/api/document_processor.md ("EULA"); lti-notes 2.6.
// The launch's claims are messages/eula.ts's.
import { EULA_USER_SCOPE } from './asset-processor.js';
import type { Platform } from './platform.js';
import { ServiceCallFailed, sendToService } from './platform-service.js';

/** The platform did not take the acceptance; `message` is a sentence for the user, `detail` for the log. */
export class EulaServiceRefused extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'EulaServiceRefused';
  }
}

const NOT_TAKEN =
  'Your LMS did not record your acceptance of the terms, so nothing was recorded. Try again; if it keeps failing, tell your LMS administrator.';

/** Tells the platform's EULA service that `userId` (the launch's sub) accepted at `acceptedAt`; throws EulaServiceRefused. */
export async function postEulaAcceptance(
  platform: Platform,
  serviceUrl: string,
  userId: string,
  acceptedAt: Date,
): Promise<void> {
  try {
    await sendToService(platform, EULA_USER_SCOPE, `${serviceUrl.replace(/\/+$/, '')}/user`, {
      method: 'POST',
      body: { userId, accepted: true, timestamp: acceptedAt.toISOString() },
    });
  } catch (error) {
    if (!(error instanceof ServiceCallFailed)) throw error;
    if (error.step === 'unreachable')
      throw new EulaServiceRefused(
        `Your LMS's EULA service could not be reached, so nothing was recorded.${error.own} Try again in a moment.`,
        error.message,
      );
    throw new EulaServiceRefused(NOT_TAKEN, error.message);
  }
}
