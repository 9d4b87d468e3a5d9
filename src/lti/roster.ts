// The course roster through LTI Names and Role Provisioning Services 2.0
// (https://www.imsglobal.org/spec/lti-nrps/v2p0): every page followed through Link rel="next", kept a few
// minutes per process so that a dashboard refresh does not call the LMS each time. Each page is one call of
// platform-service.ts (token, deadline, size limit, a new token once on 401).
import { z } from 'zod';
import { SCOPE } from './claims.js';
import type { PlatformLookup } from './platform.js';
import { ServiceCallFailed, callService } from './platform-service.js';

export const NRPS_SCOPE = SCOPE.nrps;
const MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
const CACHE_MS = 5 * 60_000;
const MAX_PAGES = 200;
/** A page of a few hundred members is tens of kilobytes; a class of thousands comes in several pages. */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;

const member = z.object({
  user_id: z.string().min(1),
  name: z.string().optional(),
  email: z.string().optional(),
  roles: z.array(z.string()).default([]),
  status: z.string().optional(),
});
const container = z.object({ members: z.array(z.unknown()).default([]) });

export interface RosterMember {
  subject: string;
  name: string | null;
  email: string | null;
  roles: string[];
  active: boolean;
}

export class RosterUnavailable extends Error {}

/** The URL in a Link header with rel="next", if any (RFC 8288). */
export function nextLink(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of value.split(',')) {
    const match = part.match(/<([^>]+)>\s*;(.*)/);
    if (match && /rel="?next"?/i.test(match[2]!)) return match[1]!;
  }
  return null;
}

const cache = new Map<string, { at: number; members: RosterMember[] }>();

export async function fetchRoster(
  provider: PlatformLookup,
  platform: { issuer: string; clientId: string },
  membershipsUrl: string,
  options: { fresh?: boolean } = {},
): Promise<RosterMember[]> {
  const key = `${platform.issuer}\n${platform.clientId}\n${membershipsUrl}`;
  const cached = cache.get(key);
  if (cached && !options.fresh && Date.now() - cached.at < CACHE_MS) return cached.members;

  const ltiPlatform = await provider.getPlatform(platform.issuer, platform.clientId);
  if (!ltiPlatform) throw new RosterUnavailable('The platform is no longer registered.');
  const members: RosterMember[] = [];
  let url: string | null = membershipsUrl;
  for (let page = 0; url && page < MAX_PAGES; page += 1) {
    let response;
    try {
      response = await callService(ltiPlatform, NRPS_SCOPE, url, { accept: MEDIA_TYPE, maxBytes: MAX_PAGE_BYTES });
    } catch (error) {
      if (!(error instanceof ServiceCallFailed)) throw error;
      const why = (error.cause as Error | undefined)?.message ?? error.message;
      throw new RosterUnavailable(
        error.step === 'token'
          ? `The LMS did not grant access to the roster: ${why}`
          : `The LMS roster did not answer: ${why}`,
      );
    }
    const text = response.body;
    if (response.status !== 200) throw new RosterUnavailable(`The LMS roster answered HTTP ${response.status}.`);
    let parsed;
    try {
      parsed = container.parse(JSON.parse(text));
    } catch {
      throw new RosterUnavailable('The LMS roster answered with something that is not a membership list.');
    }
    for (const raw of parsed.members) {
      const entry = member.safeParse(raw);
      if (!entry.success) continue; // one odd entry does not hide the rest of the class
      members.push({
        subject: entry.data.user_id,
        name: entry.data.name ?? null,
        email: entry.data.email ?? null,
        roles: entry.data.roles,
        active: (entry.data.status ?? 'Active') === 'Active',
      });
    }
    url = nextLink(response.headers.link);
  }
  cache.set(key, { at: Date.now(), members });
  return members;
}
