// A page request's session: the ltik that ltijs issued at launch (a JWT signed with the tool's key, carried in
// the URL or a header, never a cookie, so it works in an LMS iframe that blocks third-party cookies), and the
// launch it stands for, read back from ltijs's stored id and context tokens.
import { jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import type { IdToken } from 'ltijs';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { readLaunch, type Launch, type LaunchIdentity } from './launch.js';
import type { PostgresLtiStorage } from './storage.js';

const ltikPayload = z.object({
  platformUrl: z.string(),
  clientId: z.string(),
  deploymentId: z.string(),
  contextId: z.string(),
  user: z.string(),
});

export interface Session extends LaunchIdentity {
  ltik: string;
  launch: Launch;
  /** ltijs's own token object, which its grade and roster services take. */
  idToken: IdToken;
}

export type SessionProblem = 'invalid' | 'expired';

export async function resolveSession(
  deps: { db: Kysely<DatabaseSchema>; storage: PostgresLtiStorage; encryptionKey: string },
  ltik: string,
): Promise<Session | SessionProblem> {
  let claims: z.infer<typeof ltikPayload>;
  try {
    const { payload } = await jwtVerify(ltik, new TextEncoder().encode(deps.encryptionKey), { algorithms: ['HS256'] });
    claims = ltikPayload.parse(payload);
  } catch {
    return 'invalid';
  }
  const [idTokens, contextTokens] = await Promise.all([
    deps.storage.Get(false, 'idtoken', { iss: claims.platformUrl, clientId: claims.clientId, deploymentId: claims.deploymentId, user: claims.user }),
    deps.storage.Get(false, 'contexttoken', { contextId: claims.contextId, user: claims.user }),
  ]);
  if (!idTokens || !contextTokens) return 'expired';
  const idToken = { ...idTokens[0], platformContext: contextTokens[0] } as unknown as IdToken;
  const launch = readLaunch(idToken);
  const identity = await deps.db
    .selectFrom('platform')
    .innerJoin('lti_user', 'lti_user.platform_id', 'platform.id')
    // The launch's course is its context in its deployment (launch.ts keys courses so).
    .leftJoin('course', (join) =>
      join.onRef('course.platform_id', '=', 'platform.id').on('course.deployment_id', '=', launch.deploymentId).on('course.context_id', '=', launch.context?.id ?? ''),
    )
    .select(['platform.id as platformId', 'lti_user.id as userId', 'course.id as courseId'])
    .where('platform.issuer', '=', launch.issuer)
    .where('platform.client_id', '=', launch.clientId)
    .where('platform.active', '=', true)
    .where('lti_user.subject', '=', launch.subject)
    .executeTakeFirst();
  if (!identity) return 'expired';
  return { ltik, launch, idToken, platformId: identity.platformId, userId: identity.userId, courseId: identity.courseId };
}
