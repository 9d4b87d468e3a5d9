// What the tool takes from a validated launch, and the people and course it records from it.
import type { Kysely } from 'kysely';
import type { IdToken } from 'ltijs';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { learnFrameOrigin, webOrigin } from './frame-origins.js';
import { audienceOf, isPlatformAdmin, type Audience } from './roles.js';

/** The claims the tool relies on, checked again here: ltijs validates the signature, not the shape. */
const launchToken = z.object({
  iss: z.string().min(1),
  user: z.string().min(1).max(255), // LTI core 5.3.6: sub is at most 255 ASCII characters
  clientId: z.string().min(1),
  deploymentId: z.string().min(1),
  userInfo: z
    .object({ name: z.string().max(1000).optional(), email: z.string().max(1000).optional(), given_name: z.string().optional(), family_name: z.string().optional() })
    .partial()
    .optional(),
  platformContext: z.object({
    messageType: z.string().optional(),
    roles: z.array(z.string()).default([]),
    context: z.object({ id: z.string().min(1).max(255), title: z.string().max(1000).optional(), label: z.string().max(1000).optional() }).optional(),
    resource: z.object({ id: z.string().min(1).max(255), title: z.string().max(1000).optional(), description: z.string().max(10_000).optional() }).optional(),
    custom: z.record(z.string(), z.unknown()).optional(),
    endpoint: z.object({ lineitem: z.string().url().optional(), lineitems: z.string().url().optional(), scope: z.array(z.string()).optional() }).optional(),
    namesRoles: z.object({ context_memberships_url: z.string().url().optional() }).optional(),
    deepLinkingSettings: z
      .object({ deep_link_return_url: z.string().url(), accept_types: z.array(z.string()).default([]) })
      .optional(),
    // Optional and only a hint (where the LMS shows the tool from): an odd one is dropped, not a failed launch.
    launchPresentation: z.object({ return_url: z.string().max(4096).optional().catch(undefined) }).optional().catch(undefined),
  }),
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
  messageType: string;
  context: { id: string; title: string | null; label: string | null } | null;
  resourceLink: { id: string; title: string | null; description: string | null } | null;
  custom: Record<string, unknown>;
  lineItemUrl: string | null;
  lineItemsUrl: string | null;
  membershipsUrl: string | null;
  /** Present on deep-linking requests: where to send the answer and which content item types the platform takes. */
  deepLinking: { returnUrl: string; acceptTypes: string[] } | null;
  /** The origin the LMS shows the tool from, when the launch tells it (its return URL's). */
  frameOrigin: string | null;
}

export class LaunchShapeError extends Error {
  constructor(detail: string) {
    super(`The launch is missing information the tool needs: ${detail}`);
    this.name = 'LaunchShapeError';
  }
}

export function readLaunch(token: IdToken): Launch {
  const parsed = launchToken.safeParse(token);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new LaunchShapeError(`${issue.path.join('.') || 'token'} ${issue.message}`);
  }
  const t = parsed.data;
  const info = t.userInfo ?? {};
  const fullName = info.name ?? ([info.given_name, info.family_name].filter(Boolean).join(' ') || null);
  const ctx = t.platformContext;
  return {
    issuer: t.iss,
    clientId: t.clientId,
    deploymentId: t.deploymentId,
    subject: t.user,
    name: fullName,
    email: info.email ?? null,
    roles: ctx.roles,
    audience: audienceOf(ctx.roles),
    platformAdmin: isPlatformAdmin(ctx.roles),
    messageType: ctx.messageType ?? 'LtiResourceLinkRequest',
    context: ctx.context ? { id: ctx.context.id, title: ctx.context.title ?? null, label: ctx.context.label ?? null } : null,
    resourceLink: ctx.resource ? { id: ctx.resource.id, title: ctx.resource.title ?? null, description: ctx.resource.description ?? null } : null,
    custom: ctx.custom ?? {},
    lineItemUrl: ctx.endpoint?.lineitem ?? null,
    lineItemsUrl: ctx.endpoint?.lineitems ?? null,
    membershipsUrl: ctx.namesRoles?.context_memberships_url ?? null,
    deepLinking: ctx.deepLinkingSettings
      ? { returnUrl: ctx.deepLinkingSettings.deep_link_return_url, acceptTypes: ctx.deepLinkingSettings.accept_types }
      : null,
    frameOrigin: webOrigin(ctx.launchPresentation?.return_url ?? ctx.deepLinkingSettings?.deep_link_return_url),
  };
}

export interface LaunchIdentity {
  platformId: string;
  userId: string;
  courseId: string | null;
}

/**
 * Stores the user, the course and the user's roles in it as this launch states them, all or nothing, and the host
 * the platform showed the tool from (which may frame that platform's sessions from then on).
 */
export async function recordLaunch(db: Kysely<DatabaseSchema>, launch: Launch): Promise<LaunchIdentity> {
  return db.transaction().execute(async (trx) => {
    const platform = await trx
      .selectFrom('platform')
      .select('id')
      .where('issuer', '=', launch.issuer)
      .where('client_id', '=', launch.clientId)
      .executeTakeFirstOrThrow();
    const now = new Date();
    if (launch.frameOrigin) await learnFrameOrigin(trx, platform.id, launch.frameOrigin);
    const user = await trx
      .insertInto('lti_user')
      .values({ platform_id: platform.id, subject: launch.subject, name: launch.name, email: launch.email })
      .onConflict((oc) => oc.columns(['platform_id', 'subject']).doUpdateSet({ name: launch.name, email: launch.email, updated_at: now }))
      .returning('id')
      .executeTakeFirstOrThrow();
    if (!launch.context) return { platformId: platform.id, userId: user.id, courseId: null };
    const course = await trx
      .insertInto('course')
      .values({
        platform_id: platform.id,
        deployment_id: launch.deploymentId,
        context_id: launch.context.id,
        title: launch.context.title,
        label: launch.context.label,
      })
      .onConflict((oc) => oc.columns(['platform_id', 'deployment_id', 'context_id']).doUpdateSet({ title: launch.context!.title, label: launch.context!.label, updated_at: now }))
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('course_member')
      .values({ course_id: course.id, user_id: user.id, roles: launch.roles })
      .onConflict((oc) => oc.columns(['course_id', 'user_id']).doUpdateSet({ roles: launch.roles, updated_at: now }))
      .execute();
    return { platformId: platform.id, userId: user.id, courseId: course.id };
  });
}
