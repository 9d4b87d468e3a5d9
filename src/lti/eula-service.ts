// The platform's EULA service (Asset Processor): where an LtiEulaRequest launch says it is, and the tool telling it
// that a user accepted the tool's terms: POST {url}/user {userId, accepted, timestamp} with a token of the eula/user
// scope; the platform answers 201. Canvas: doc/api/document_processor.md ("EULA"); lti-notes 2.6.
// The launch's claims are messages/eula.ts's.
import { EULA_USER_SCOPE } from './asset-processor.js';
import type { Platform } from './platform.js';
import { sendForPerson } from './platform-service.js';

const NOT_TAKEN =
  'Your LMS did not record your acceptance of the terms, so nothing was recorded. Try again; if it keeps failing, tell your LMS administrator.';

/** Tells the platform's EULA service that `userId` (the launch's sub) accepted at `acceptedAt`; throws ServiceRefused. */
export async function postEulaAcceptance(
  platform: Platform,
  serviceUrl: string,
  userId: string,
  acceptedAt: Date,
): Promise<void> {
  await sendForPerson(
    platform,
    EULA_USER_SCOPE,
    `${serviceUrl.replace(/\/+$/, '')}/user`,
    { method: 'POST', body: { userId, accepted: true, timestamp: acceptedAt.toISOString() } },
    { service: 'EULA service', outcome: 'nothing was recorded', notTaken: NOT_TAKEN },
  );
}
