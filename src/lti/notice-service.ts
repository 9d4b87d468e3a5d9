// The Platform Notification Service (https://www.imsglobal.org/spec/lti-pns/v1p0/main): where a launch says the
// platform's service is, and the tool's subscription to the Asset Processor's submission notices there. Canvas
// (doc/api/pns.md): PUT {notice_type, handler} with a token of the noticehandlers scope; one handler per notice type;
// the handler is public and on the tool's own domain; a notice is never sent twice, so the subscription is made
// before the processor is attached. Where the service is, a deep-linking launch says (messages/deep-linking.ts).
import { SCOPE } from './claims.js';
import type { Platform } from './platform.js';
import { sendForPerson } from './platform-service.js';

export const SUBMISSION_NOTICE = 'LtiAssetProcessorSubmissionNotice';

const NOT_SUBSCRIBED =
  'Your LMS did not let the tool subscribe to its submission notices, so the tool was not attached (nothing was created). Try again; if it keeps failing, ask your LMS administrator to give the tool the notice handler scope.';

/** Subscribes `handlerUrl` to the platform's submission notices at `serviceUrl`; throws ServiceRefused otherwise. */
export async function subscribeToSubmissions(
  platform: Platform,
  serviceUrl: string,
  handlerUrl: string,
): Promise<void> {
  await sendForPerson(
    platform,
    SCOPE.noticeHandlers,
    serviceUrl,
    { method: 'PUT', body: { notice_type: SUBMISSION_NOTICE, handler: handlerUrl } },
    {
      service: 'notification service',
      outcome: 'the tool was not attached (nothing was created)',
      notTaken: NOT_SUBSCRIBED,
    },
  );
}
