// Which origins may frame the pages of one platform's sessions: the LMS shows the tool in an iframe of its own
// pages, and the browser lets it only when the tool's answer names the LMS in frame-ancestors. Each answer names
// the platform of its own session and no other (one school's LMS may not frame another school's sessions), and an
// answer with no session names none.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { webOrigin } from './launch.js';

/** Multi-tenant LMS clouds: the issuer is the vendor's, the pages are on each school's host under its domain. */
const CLOUD_HOSTS: Record<string, string> = {
  'https://canvas.instructure.com': 'https://*.instructure.com',
  'https://canvas.beta.instructure.com': 'https://*.instructure.com',
  'https://canvas.test.instructure.com': 'https://*.instructure.com',
};

/**
 * The origins of an active platform's issuer, login and token addresses, the hosts its launches came back to
 * (launch_presentation.return_url, learnt at launch), and for Canvas Cloud its schools' hosts. Empty for a platform
 * that is switched off or still waiting for approval: it frames nothing.
 */
export async function platformFrameOrigins(db: Kysely<DatabaseSchema>, platformId: string): Promise<string[]> {
  const [platform, learnt] = await Promise.all([
    db.selectFrom('platform').select(['issuer', 'auth_url', 'token_url']).where('id', '=', platformId).where('active', '=', true).executeTakeFirst(),
    db
      .selectFrom('platform_frame_origin')
      .innerJoin('platform', 'platform.id', 'platform_frame_origin.platform_id')
      .select('origin')
      .where('platform.id', '=', platformId)
      .where('platform.active', '=', true)
      .execute(),
  ]);
  if (!platform) return [];
  const origins = new Set<string>(learnt.map((row) => row.origin));
  const cloud = CLOUD_HOSTS[platform.issuer.replace(/\/+$/, '')];
  if (cloud) origins.add(cloud);
  for (const value of [platform.issuer, platform.auth_url, platform.token_url]) {
    const origin = webOrigin(value);
    if (origin) origins.add(origin);
  }
  return [...origins].sort();
}

/**
 * The frame origins of the active platform a launch names (issuer and client id, read before the launch is
 * verified), for a refusal page that shows one sentence: the LMS's iframe shows the sentence instead of the
 * browser's "refused to connect". Empty for a platform the tool does not know or that is switched off.
 */
export async function claimedPlatformFrameOrigins(db: Kysely<DatabaseSchema>, claim: { issuer: string; clientId: string }): Promise<string[]> {
  const platform = await db.selectFrom('platform').select('id').where('issuer', '=', claim.issuer).where('client_id', '=', claim.clientId).executeTakeFirst();
  return platform ? platformFrameOrigins(db, platform.id) : [];
}
