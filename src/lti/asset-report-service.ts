// The platform's Asset Report service (https://www.imsglobal.org/spec/lti-ap/v1p0, Asset Report Service): a report
// posted as JSON with a token of the report scope the notice or launch named. The answer is returned whatever its
// status: the report job tells a late timestamp (409) from a busy platform and a malformed report.
import type { Platform } from './platform.js';
import { callService } from './platform-service.js';
import type { PlatformAnswer } from './platform-http.js';

/** Posts one report; throws ServiceCallFailed when there is no token or no answer. */
export function postAssetReport(
  platform: Platform,
  scope: string,
  reportUrl: string,
  report: object,
): Promise<PlatformAnswer> {
  return callService(platform, scope, reportUrl, {
    method: 'POST',
    contentType: 'application/json',
    accept: 'application/json',
    body: JSON.stringify(report),
  });
}
