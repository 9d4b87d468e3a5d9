// A launch as the tool keeps it: the one shape of a verified launch (verify-launch.ts reads it from the token, once),
// which the session keeps as it is (launch-session.ts, session.ts) and every route gets. What every message carries
// is read here; what is particular to a message type is read by its file (messages/) and kept under `message`.
// Also the launch's one statement, which records it with the person and the course.
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { isUnstorableText, type DatabaseSchema } from '../db/index.js';
import { CLAIM } from './claims.js';
import { learnFrameOrigin, platformFrameOrigins, webOrigin } from './frame-origins.js';
import { DEEP_LINKING_MESSAGE, type LaunchMessage, type LaunchMessageType, type MessageOf } from './messages/index.js';
import { audienceOf, isPlatformAdmin, type Audience } from './roles.js';
import { registrationCache } from './registration-cache.js';

/**
 * What every launch may carry besides its core claims (LTI Core 5.3, 5.4; verify-launch.ts checks those), read from
 * the verified payload under the standard names (claims.ts), where null reads as absent (Canvas sends "description":
 * null for an assignment without one). An identifier that breaks the spec's limits fails the launch as incomplete; what
 * is only a hint is dropped when odd.
 */
export const commonClaims = z.object({
  name: z.string().max(1000).optional().catch(undefined),
  given_name: z.string().max(1000).optional().catch(undefined),
  family_name: z.string().max(1000).optional().catch(undefined),
  email: z.string().max(1000).optional().catch(undefined),
  [CLAIM.context]: z
    .object({
      id: z.string().min(1).max(255), // LTI core 5.4.1
      title: z.string().max(1000).optional(),
      label: z.string().max(1000).optional(),
    })
    .optional(),
  [CLAIM.resourceLink]: z
    .object({
      id: z.string().min(1).max(255), // LTI core 5.3.5
      title: z.string().max(1000).optional(),
      description: z.string().max(10_000).optional(),
    })
    .optional(),
  [CLAIM.custom]: z.record(z.string(), z.unknown()).optional(),
  [CLAIM.agsEndpoint]: z
    .object({
      lineitem: z.string().url().optional(),
      lineitems: z.string().url().optional(),
      scope: z.array(z.string()).optional(),
    })
    .optional(),
  [CLAIM.namesRoleService]: z.object({ context_memberships_url: z.string().url().optional() }).optional(),
  // Optional and only a hint (where the LMS shows the tool from): an odd one is dropped, not a failed launch.
  // Its locale (LTI core 5.4.2, https://www.imsglobal.org/spec/lti/v1p3/#launch-presentation-claim): the language
  // the person reads, a BCP 47 tag; messages/language.ts chooses among the tool's languages by it.
  [CLAIM.launchPresentation]: z
    .object({
      return_url: z.string().max(4096).optional().catch(undefined),
      locale: z.string().max(100).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  // The LMS's own word for its product (LTI core 5.4.4, https://www.imsglobal.org/spec/lti/v1p3/#platform-instance-claim):
  // only a hint for the pages' look, so an odd one is dropped rather than failing the launch.
  [CLAIM.toolPlatform]: z
    .object({ product_family_code: z.string().max(100).optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

export interface Launch {
  issuer: string;
  clientId: string;
  deploymentId: string;
  subject: string;
  name: string | null;
  email: string | null;
  roles: string[];
  audience: Audience;
  platformAdmin: boolean;
  context: { id: string; title: string | null; label: string | null } | null;
  resourceLink: { id: string; title: string | null; description: string | null } | null;
  custom: Record<string, unknown>;
  lineItemUrl: string | null;
  lineItemsUrl: string | null;
  membershipsUrl: string | null;
  /** The origin the LMS shows the tool from, when the launch tells it (its return URL's). */
  frameOrigin: string | null;
  /** The language the launch asks pages in (its launch_presentation.locale, as sent), when it says. */
  locale: string | null;
  /** The LMS product the launch says it comes from (tool_platform.product_family_code, as sent), when it says. */
  productFamily: string | null;
  /** What is particular to its message type, as its file read it (messages/); `message.type` is the message type. */
  message: LaunchMessage;
}

/** A launch of one message type, its particular part typed as that type's file reads it. */
export type LaunchOf<Type extends LaunchMessageType> = Launch & { message: MessageOf<Type> };

/** Whether a launch (a page's session's, say) is of the message type a route answers. */
export function isLaunchOf<Type extends LaunchMessageType>(launch: Launch, type: Type): launch is LaunchOf<Type> {
  return launch.message.type === type;
}

/** The launch of a verified payload: who, where, and its message as read by its type's file. */
export function launchOf(
  registration: { issuer: string; clientId: string; deploymentId: string },
  subject: string,
  roles: string[],
  common: z.output<typeof commonClaims>,
  message: LaunchMessage,
): Launch {
  const context = common[CLAIM.context];
  const resource = common[CLAIM.resourceLink];
  const endpoint = common[CLAIM.agsEndpoint];
  const presentation = common[CLAIM.launchPresentation];
  return {
    ...registration,
    subject,
    name: common.name ?? ([common.given_name, common.family_name].filter(Boolean).join(' ') || null),
    email: common.email ?? null,
    roles,
    audience: audienceOf(roles),
    platformAdmin: isPlatformAdmin(roles),
    context: context ? { id: context.id, title: context.title ?? null, label: context.label ?? null } : null,
    resourceLink: resource
      ? { id: resource.id, title: resource.title ?? null, description: resource.description ?? null }
      : null,
    custom: common[CLAIM.custom] ?? {},
    lineItemUrl: endpoint?.lineitem ?? null,
    lineItemsUrl: endpoint?.lineitems ?? null,
    membershipsUrl: common[CLAIM.namesRoleService]?.context_memberships_url ?? null,
    frameOrigin: webOrigin(
      presentation?.return_url ?? (message.type === DEEP_LINKING_MESSAGE ? message.returnUrl : undefined),
    ),
    locale: presentation?.locale ?? null,
    productFamily: common[CLAIM.toolPlatform]?.product_family_code ?? null,
    message,
  };
}

export interface LaunchIdentity {
  platformId: string;
  userId: string;
  courseId: string | null;
}

/** A recorded launch: who launched. */
export type RecordedIdentity = LaunchIdentity;

/**
 * A launch that its recording refused: its state was used meanwhile, its nonce was seen before (a replay), it holds
 * what cannot be stored, or the registrations changed since the admission read them (the launch's chain then runs
 * again against the registrations as they are now). What the person reads of each reason is the chain's
 * (launch-flow.ts).
 */
export class LaunchRefused extends Error {
  constructor(readonly reason: 'state used' | 'nonce used' | 'unstorable claims' | 'registrations changed') {
    super(`Launch refused: ${reason}`);
    this.name = 'LaunchRefused';
  }
}

/** A row of the LTI storage (storage.ts) as a launch's one statement writes it: its nonce, its session. */
export interface LaunchRecord {
  collection: string;
  recordKey: string;
  doc: Record<string, unknown>;
  /** Seconds until it expires; null: never. */
  ttlSeconds: number | null;
}

/** What a launch's one statement writes besides the person and the course: its nonce and its session's records. */
export interface LaunchWrites {
  /** The OIDC state the launch came back with (oidc-state.ts), used up by this write, and when it expires. */
  state: { value: string; expiresAt: Date };
  /** The registrations' version the launch was checked against (registration-cache.ts); null: none held still. */
  registrations: string | null;
  /**
   * The launch's deployment is the first of a platform that named none at registration (verify-launch.ts): it is
   * kept as the platform's own, unless another launch gave it one meanwhile.
   */
  firstDeployment: boolean;
  nonce: LaunchRecord;
  records: LaunchRecord[];
}

interface RecordedLaunch {
  version: string;
  state_used: boolean;
  nonce_new: boolean;
  platform_id: string | null;
  user_id: string | null;
  course_id: string | null;
}

/**
 * Records a verified launch (verify-launch.ts), in one statement, all or nothing, and only while the registrations'
 * version is still the one its checks read (registration-cache.ts: a platform switched off, a keys URL changed or a
 * registration removed in any process refuses the next launch): its state used up (signed at login, oidc-state.ts;
 * usable once), its nonce (OpenID Connect Core 3.1.3.7: a nonce is accepted once; the unique key
 * decides between two launches racing with one), the session's id and context tokens that its ltik stands for,
 * and the user, the course and the user's roles in it as this launch states them, and the deployment as its
 * platform's own when it is the platform's first (LaunchWrites.firstDeployment). A state another launch used
 * meanwhile, or a nonce seen before, writes nothing further and throws LaunchRefused. Then, when the launch came
 * back to a host its platform had not shown the tool from, that host may frame the platform's sessions from then
 * on (frame-origins.ts).
 */
export async function recordLaunch(
  db: Kysely<DatabaseSchema>,
  launch: Launch,
  writes: LaunchWrites,
): Promise<RecordedIdentity> {
  const { state, nonce, records } = writes;
  const context = launch.context;
  const recorded = sql<RecordedLaunch>`
    WITH registrations AS (
      SELECT version FROM lti_config_version
    ), used_state AS (
      INSERT INTO used_oidc_state (state, expires_at)
      SELECT ${state.value}, ${state.expiresAt} FROM registrations WHERE version = ${writes.registrations}
      ON CONFLICT (state) DO NOTHING
      RETURNING state
    ), new_nonce AS (
      INSERT INTO lti_record (collection, record_key, doc, expires_at)
      SELECT ${nonce.collection}, ${nonce.recordKey}, ${JSON.stringify(nonce.doc)}::jsonb, now() + make_interval(secs => ${nonce.ttlSeconds}::double precision)
        FROM used_state
      ON CONFLICT (collection, record_key) DO NOTHING
      RETURNING id
    ), launched_platform AS (
      SELECT platform.id FROM platform, new_nonce WHERE platform.issuer = ${launch.issuer} AND platform.client_id = ${launch.clientId}
    ), first_deployment AS (
      INSERT INTO platform_deployment (platform_id, deployment_id)
      SELECT id, ${launch.deploymentId} FROM launched_platform
       WHERE ${writes.firstDeployment}::boolean
         AND NOT EXISTS (SELECT FROM platform_deployment WHERE platform_id = launched_platform.id)
      ON CONFLICT DO NOTHING
    ), session_records AS (
      INSERT INTO lti_record (collection, record_key, doc, expires_at)
      SELECT r.collection, r.record_key, r.doc, now() + make_interval(secs => r.ttl)
        FROM launched_platform, jsonb_to_recordset(${JSON.stringify(records.map((r) => ({ collection: r.collection, record_key: r.recordKey, doc: r.doc, ttl: r.ttlSeconds })))}::jsonb)
             AS r(collection text, record_key text, doc jsonb, ttl double precision)
      ON CONFLICT (collection, record_key) DO UPDATE SET doc = excluded.doc, created_at = now(), expires_at = excluded.expires_at
    ), person AS (
      INSERT INTO lti_user (platform_id, subject, name, email)
      SELECT id, ${launch.subject}, ${launch.name}, ${launch.email} FROM launched_platform
      ON CONFLICT (platform_id, subject) DO UPDATE SET name = excluded.name, email = excluded.email, updated_at = now()
      RETURNING id, platform_id
    ), launched_course AS (
      INSERT INTO course (platform_id, deployment_id, context_id, title, label)
      SELECT id, ${launch.deploymentId}, ${context?.id ?? null}::text, ${context?.title ?? null}, ${context?.label ?? null}
        FROM launched_platform WHERE ${context?.id ?? null}::text IS NOT NULL
      ON CONFLICT (platform_id, deployment_id, context_id) DO UPDATE SET title = excluded.title, label = excluded.label, updated_at = now()
      RETURNING id
    ), membership AS (
      INSERT INTO course_member (course_id, user_id, roles)
      SELECT launched_course.id, person.id, ${launch.roles}::text[] FROM launched_course, person
      ON CONFLICT (course_id, user_id) DO UPDATE SET roles = excluded.roles, updated_at = now()
    )
    SELECT (SELECT version FROM registrations) AS version,
           EXISTS (SELECT FROM used_state) AS state_used, EXISTS (SELECT FROM new_nonce) AS nonce_new,
           person.platform_id, person.id AS user_id, (SELECT id FROM launched_course) AS course_id
      FROM (SELECT 1) AS one LEFT JOIN person ON true`;
  const rows = await recorded.execute(db).then(
    (result) => result.rows,
    (error: unknown) => {
      if (isUnstorableText(error)) throw new LaunchRefused('unstorable claims');
      throw error;
    },
  );
  const row = rows[0]!;
  // The version read here keeps this process's registrations fresh; a newer one than the launch's checks read makes
  // it forget them, and the launch is checked again against the registrations as they are now.
  registrationCache(db).observe(row.version);
  if (row.version !== writes.registrations) throw new LaunchRefused('registrations changed');
  if (!row.state_used) throw new LaunchRefused('state used');
  if (!row.nonce_new) throw new LaunchRefused('nonce used');
  if (!row.platform_id || !row.user_id) throw new Error('The launch names a platform that is not registered.');
  if (launch.frameOrigin && !(await platformFrameOrigins(db, row.platform_id)).includes(launch.frameOrigin)) {
    await learnFrameOrigin(db, row.platform_id, launch.frameOrigin);
  }
  return { platformId: row.platform_id, userId: row.user_id, courseId: row.course_id };
}
