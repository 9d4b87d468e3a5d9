// An access token for the LMS's services (AGS, NRPS), from ltijs: its cache, else the platform's token endpoint.
// ltijs asks the endpoint through got without a timeout, so an LMS that never answers would hold a grade job
// until its expiry, or an instructor's dashboard for ever; here the wait is bounded.
import type { Platform } from 'ltijs';

export async function accessTokenWithin(platform: Pick<Platform, 'platformAccessToken'>, scope: string, timeoutMs: number): Promise<string> {
  const asked = platform.platformAccessToken(scope);
  // An answer that comes after the time is up has nobody waiting for it, its failure included.
  asked.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the LMS's token endpoint did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return (await Promise.race([asked, timeUp])).access_token;
  } finally {
    clearTimeout(timer);
  }
}
