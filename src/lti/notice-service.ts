// The Platform Notification Service (https://www.imsglobal.org/spec/lti-pns/v1p0/main): where a launch says the
// platform's service is, and the tool's subscription to the Asset Processor's submission notices there. Canvas
// (doc/api/pns.md): PUT {notice_type, handler} with a token of the noticehandlers scope; one handler per notice type;
// the handler is public and on the tool's own domain; a notice is never sent twice, so the subscription is made
// before the processor is attached.
import { z } from 'zod';
import { accessTokenWithin } from './access-token.js';
import { NOTICE_HANDLERS_SCOPE } from './asset-processor.js';
import { PlatformRequestError, platformRequest } from './platform-http.js';

export const SUBMISSION_NOTICE = 'LtiAssetProcessorSubmissionNotice';

/** The service's claim in a launch; what the tool needs of it is its address. */
export const noticeServiceClaim = z.object({
  platform_notification_service_url: z.string().url().max(4096),
  notice_types_supported: z.array(z.string()).optional(),
});

const TIMEOUT_MS = 15_000;
const MAX_ANSWER_BYTES = 64 * 1024;

type TokenPlatform = Parameters<typeof accessTokenWithin>[0];

/** The subscription did not happen; `message` is a sentence for the instructor, `detail` for the log. */
export class NoticeHandlerRefused extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'NoticeHandlerRefused';
  }
}

const NOT_SUBSCRIBED = 'Your LMS did not let the tool subscribe to its submission notices, so the tool was not attached (nothing was created). Try again; if it keeps failing, ask your LMS administrator to give the tool the notice handler scope.';

/** Subscribes `handlerUrl` to the platform's submission notices at `serviceUrl`; throws NoticeHandlerRefused otherwise. */
export async function subscribeToSubmissions(platform: TokenPlatform, serviceUrl: string, handlerUrl: string): Promise<void> {
  let token: string;
  try {
    token = await accessTokenWithin(platform, NOTICE_HANDLERS_SCOPE, TIMEOUT_MS);
  } catch (error) {
    throw new NoticeHandlerRefused(NOT_SUBSCRIBED, `no token for the noticehandlers scope: ${(error as Error).message}`);
  }
  let answer;
  try {
    answer = await platformRequest(serviceUrl, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ notice_type: SUBMISSION_NOTICE, handler: handlerUrl }),
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (error) {
    const own = error instanceof PlatformRequestError ? ` ${error.message}` : '';
    throw new NoticeHandlerRefused(`Your LMS's notification service could not be reached, so the tool was not attached (nothing was created).${own} Try again in a moment.`, (error as Error).message);
  }
  if (answer.status < 200 || answer.status >= 300) throw new NoticeHandlerRefused(NOT_SUBSCRIBED, `HTTP ${answer.status} from the notification service`);
}
