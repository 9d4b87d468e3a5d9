// Which origins may frame the pages of one platform's sessions: the LMS shows the tool in an iframe of its own
// pages, and the browser lets it only when the tool's answer names the LMS in frame-ancestors. Each answer names
// the platform of its own session and no other (one school's LMS may not frame another school's sessions), and an
// answer with no session names none.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { registrationCache } from './registration-cache.js';

/**
 * A host name as DNS has them, or an IP address: the only hosts an origin may name, since origins go into the
 * frame-ancestors header, where a `*` would let any site frame the tool and a `;` or `,` would rewrite the policy
 * (the URL parser lets both through in a host).
 */
const PLAIN_HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$|^\[[0-9a-f:.]+\]$/;

/** The origin of an http(s) address with a plain host; null for anything else (absent, malformed, another scheme). */
export function webOrigin(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    // A host name is at most 253 characters, each label 63: the origin goes into every answer's header.
    const plain = PLAIN_HOST.test(url.hostname) && url.hostname.length <= 253 && url.hostname.split('.').every((label) => label.length <= 63);
    return (url.protocol === 'https:' || url.protocol === 'http:') && plain ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Hosts learnt from one platform's launches that may frame the tool. A school's LMS shows the tool from one host
 * or a few; the bound keeps a platform's launches from growing the header without end.
 */
export const MAX_FRAME_ORIGINS_PER_PLATFORM = 20;

/** Multi-tenant LMS clouds: the issuer is the vendor's, the pages are on each school's host under its domain. */
const CLOUD_HOSTS: Record<string, string> = {
  'https://canvas.instructure.com': 'https://*.instructure.com',
  'https://canvas.beta.instructure.com': 'https://*.instructure.com',
  'https://canvas.test.instructure.com': 'https://*.instructure.com',
};

/**
 * Keeps the host a launch came back to as one its platform frames the tool from (at most
 * MAX_FRAME_ORIGINS_PER_PLATFORM).
 */
export async function learnFrameOrigin(db: Kysely<DatabaseSchema>, platformId: string, origin: string): Promise<void> {
  await sql`
    INSERT INTO platform_frame_origin (platform_id, origin)
    SELECT ${platformId}, ${origin}
     WHERE (SELECT count(*) FROM platform_frame_origin WHERE platform_id = ${platformId}) < ${MAX_FRAME_ORIGINS_PER_PLATFORM}
    ON CONFLICT DO NOTHING`.execute(db);
}

/**
 * The origins of an active platform's issuer, login and token addresses, the hosts its launches came back to
 * (launch_presentation.return_url, learnt at launch), and for Canvas Cloud its schools' hosts. Empty for a platform
 * that is switched off or still waiting for approval: it frames nothing.
 */
export async function platformFrameOrigins(db: Kysely<DatabaseSchema>, platformId: string): Promise<string[]> {
  // Asked on every launch and page, changed seldom: kept in memory while the registrations (and the learnt hosts,
  // which raise their version too) stay as they are.
  return registrationCache(db).get(`frame-origins:${platformId}`, () => readPlatformFrameOrigins(db, platformId));
}

async function readPlatformFrameOrigins(db: Kysely<DatabaseSchema>, platformId: string): Promise<string[]> {
  // The platform's addresses and its learnt hosts together.
  const rows = await db
    .selectFrom('platform')
    .leftJoin('platform_frame_origin', 'platform_frame_origin.platform_id', 'platform.id')
    .select(['platform.issuer', 'platform.auth_url', 'platform.token_url', 'platform_frame_origin.origin'])
    .where('platform.id', '=', platformId)
    .where('platform.active', '=', true)
    .execute();
  if (rows.length === 0) return [];
  const { issuer, auth_url, token_url } = rows[0]!;
  const origins = new Set<string>(rows.flatMap((row) => (row.origin ? [row.origin] : [])));
  const cloud = CLOUD_HOSTS[issuer.replace(/\/+$/, '')];
  if (cloud) origins.add(cloud);
  for (const value of [issuer, auth_url, token_url]) {
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
