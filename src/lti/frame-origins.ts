// Which origins may frame the pages of one platform's sessions: the LMS shows the tool in an iframe of its own
// pages, and the browser lets it only when the tool's answer names the LMS in frame-ancestors. Which answer names
// which platforms is decided in one place, src/web/framing.ts; here, what each platform's origins are.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { registrationCache } from './registration-cache.js';
import { sharedIssuer } from './shared-issuers.js';

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
    const plain =
      PLAIN_HOST.test(url.hostname) &&
      url.hostname.length <= 253 &&
      url.hostname.split('.').every((label) => label.length <= 63);
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

/** How one platform shows the tool: who may frame it, and the LMS product whose look the pages take on. */
export interface PlatformFrame {
  origins: string[];
  /** The product family stored at registration (lti/registrations.ts); null: not known. */
  productFamily: string | null;
}

/**
 * The origins of an active platform's issuer, login and token addresses, the hosts its launches came back to
 * (launch_presentation.return_url, learnt at launch), and for Canvas Cloud its schools' hosts, with its product
 * family. No origins for a platform that is switched off or still waiting for approval: it frames nothing.
 */
export async function platformFrame(db: Kysely<DatabaseSchema>, platformId: string): Promise<PlatformFrame> {
  // Asked on every launch and page, changed seldom: kept in memory while the registrations (and the learnt hosts,
  // which raise their version too) stay as they are.
  return registrationCache(db).get(
    `frame:${platformId}`,
    async () => (await readPlatformFrames(db, platformId))[0] ?? { origins: [], productFamily: null },
  );
}

export async function platformFrameOrigins(db: Kysely<DatabaseSchema>, platformId: string): Promise<string[]> {
  return (await platformFrame(db, platformId)).origins;
}

/**
 * The most characters of origins an answer with no session lists (every active platform's): beyond it the answer
 * is framed by the tool alone. The header goes out with every such answer, and proxies keep an answer's headers in
 * a buffer of a few kilobytes (nginx's proxy_buffer_size, 4 or 8 KB).
 */
export const MAX_SHARED_FRAME_ORIGINS_CHARS = 2000;

/**
 * The frame origins of every active platform together, for a page of one sentence that names none (a page not
 * found, a session key that is no key): whichever registered LMS shows it, its frame shows the sentence. Empty when
 * they are more than MAX_SHARED_FRAME_ORIGINS_CHARS in all.
 */
export async function everyPlatformFrameOrigins(db: Kysely<DatabaseSchema>): Promise<string[]> {
  return registrationCache(db).get('frame:every', async () => {
    const origins = [...new Set((await readPlatformFrames(db, null)).flatMap((frame) => frame.origins))].sort();
    return origins.join(' ').length <= MAX_SHARED_FRAME_ORIGINS_CHARS ? origins : [];
  });
}

/** One active platform's frame (by id), or every active platform's (null). */
async function readPlatformFrames(db: Kysely<DatabaseSchema>, platformId: string | null): Promise<PlatformFrame[]> {
  // The platforms' addresses and their learnt hosts together.
  let query = db
    .selectFrom('platform')
    .leftJoin('platform_frame_origin', 'platform_frame_origin.platform_id', 'platform.id')
    .select([
      'platform.id',
      'platform.issuer',
      'platform.auth_url',
      'platform.token_url',
      'platform.product_family',
      'platform_frame_origin.origin',
    ])
    .where('platform.active', '=', true);
  if (platformId !== null) query = query.where('platform.id', '=', platformId);
  const frames = new Map<string, { origins: Set<string>; productFamily: string | null }>();
  for (const row of await query.execute()) {
    let frame = frames.get(row.id);
    if (!frame) {
      frame = { origins: new Set<string>(), productFamily: row.product_family };
      // Multi-tenant LMS clouds: the issuer is the vendor's, the pages are on each school's host under its domain.
      const cloud = sharedIssuer(row.issuer);
      if (cloud) frame.origins.add(cloud.schoolHosts);
      for (const value of [row.issuer, row.auth_url, row.token_url]) {
        const origin = webOrigin(value);
        if (origin) frame.origins.add(origin);
      }
      frames.set(row.id, frame);
    }
    if (row.origin) frame.origins.add(row.origin);
  }
  return [...frames.values()].map((frame) => ({
    origins: [...frame.origins].sort(),
    productFamily: frame.productFamily,
  }));
}

/**
 * The frame origins of the active platform a launch names (issuer and client id, read before the launch is
 * verified), for a refusal page that shows one sentence: the LMS's iframe shows the sentence instead of the
 * browser's "refused to connect". Empty for a platform the tool does not know or that is switched off.
 */
export async function claimedPlatformFrameOrigins(
  db: Kysely<DatabaseSchema>,
  claim: { issuer: string; clientId: string },
): Promise<string[]> {
  const platform = await db
    .selectFrom('platform')
    .select('id')
    .where('issuer', '=', claim.issuer)
    .where('client_id', '=', claim.clientId)
    .executeTakeFirst();
  return platform ? platformFrameOrigins(db, platform.id) : [];
}
