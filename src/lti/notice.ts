// A notice from the Platform Notification Service (https://www.imsglobal.org/spec/lti-pns/v1p0/main): a JWT the
// platform signs with the key it signs launches with. It is verified as a launch is, with the same key fetching
// (the one key lookup, token-key.ts) and registrations: the issuer, client (aud/azp) and deployment
// must be registered and switched on, the key id must be the platform's, the signature RS256, the token unexpired,
// and the notice of the type the handler takes. Anything else is refused before the notice is read.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { PlatformTokenInvalid, verifyPlatformToken } from './platform-token.js';
import { tokenKey, type TokenKeyRefusal } from './token-key.js';
import { CLAIM, withoutNulls } from './claims.js';
import { readUnverified } from './unverified-jwt.js';

/** Clocks of the LMS and the tool differ a little. */
const CLOCK_TOLERANCE_SECONDS = 5;

/** A notice refused: `status` (4xx, or 503 when the LMS's keys cannot be had), a sentence, and a detail for the log. */
export class NoticeRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'NoticeRefused';
  }
}

const noticeClaim = z.object({
  [CLAIM.notice]: z.object({
    id: z.string().min(1).max(255),
    type: z.string().min(1).max(255),
    timestamp: z.string().max(64).optional(),
  }),
});

export interface VerifiedNotice {
  platformId: string;
  id: string;
  type: string;
  /** The whole verified payload, for the part that reads the notice's own claims. */
  claims: Record<string, unknown>;
}

const NOT_VERIFIED = "The notice could not be verified with the LMS's keys, so the tool ignored it.";

/** A refusal of the key lookup (token-key.ts), as the LMS reads it. */
function noticeRefusal(
  refused: TokenKeyRefusal,
  token: { iss: string; clientId: string; deploymentId: string; header: { alg?: unknown; kid?: unknown } },
): NoticeRefused {
  switch (refused.kind) {
    case 'unregistered':
      return new NoticeRefused(
        403,
        'This LMS (or this deployment of the tool in it) is not registered with the tool.',
        `unregistered ${token.iss} ${token.clientId} ${token.deploymentId}`,
      );
    case 'switched off':
      return new NoticeRefused(
        403,
        'The tool is switched off for this LMS.',
        `switched off: ${token.iss} ${token.clientId}`,
      );
    case 'no key id':
      return new NoticeRefused(
        401,
        NOT_VERIFIED,
        `header alg ${String(token.header.alg)} kid ${String(token.header.kid)}`,
      );
    case 'unknown key':
      return new NoticeRefused(401, NOT_VERIFIED, `no key ${String(token.header.kid)} in the platform's key set`);
    case 'keys unavailable':
      return new NoticeRefused(
        503,
        `The LMS's signing keys could not be fetched from ${refused.host}, so the notice was not taken; send it again later.`,
        refused.detail,
      );
  }
}

/**
 * The platform a notice says it comes from (its issuer and client), read without verifying anything: only to count
 * the notice against that platform's share of the places (web/admission.ts), never to trust. Null: it names none.
 */
export function noticePlatform(jwt: string): string | null {
  const names = readUnverified(jwt)?.names;
  return names ? `${names.issuer} ${names.clientId}` : null;
}

/** Verifies one notice JWT; throws NoticeRefused. `types`: the notice types the caller takes. */
export async function verifyNotice(
  db: Kysely<DatabaseSchema>,
  jwt: string,
  types: readonly string[],
): Promise<VerifiedNotice> {
  const peeked = readUnverified(jwt);
  if (!peeked) throw new NoticeRefused(400, 'A notice is not a signed token (JWT).', 'not a JWT');
  if (!peeked.names)
    throw new NoticeRefused(400, 'A notice lacks its issuer, audience or deployment.', `claims: ${peeked.missing}`);
  const { issuer: iss, clientId, deploymentId } = peeked.names;
  const { header } = peeked;
  const found = await tokenKey(db, peeked.names, peeked.keyId, { firstDeployment: 'refuse' });
  if ('refused' in found) throw noticeRefusal(found.refused, { iss, clientId, deploymentId, header });
  const { platformId, key: jwk } = found;
  let payload;
  try {
    payload = await verifyPlatformToken(jwt, jwk, {
      issuer: iss,
      clientId,
      clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
    });
  } catch (error) {
    if (!(error instanceof PlatformTokenInvalid)) throw error;
    throw new NoticeRefused(401, NOT_VERIFIED, error.message);
  }
  const notice = noticeClaim.safeParse(withoutNulls(payload));
  if (!notice.success)
    throw new NoticeRefused(400, 'A notice does not say which notice it is (its notice claim).', 'no notice claim');
  const { id, type } = notice.data[CLAIM.notice];
  if (!types.includes(type))
    throw new NoticeRefused(
      422,
      `The tool does not take notices of type ${type.slice(0, 80)} here.`,
      `notice type ${type}`,
    );
  return { platformId, id, type, claims: payload as Record<string, unknown> };
}
