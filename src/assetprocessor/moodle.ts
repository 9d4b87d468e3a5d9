// Moodle as an Asset Processor platform. Moodle has no Asset Processor of its own: the plagiarism plugin of this
// repository (moodle/plagiarism_olti) announces mod_assign's submissions as LtiAssetProcessorSubmissionNotices, and
// its ltiservice subplugin (moodle/ltiservice_olti) serves their files and takes the reports behind mod/lti/token.php
// (its notice's claims: test/fixtures/lms/moodle/). What differs from Canvas is attaching: an assignment's teacher
// switches the check on in Moodle's own form, and no deep-linking launch tells the tool, so the first notice of an
// assignment attaches the tool to it, with the tool's defaults (the settings stand "unreviewed" until an instructor
// saves them), in the course the notice names. A teacher who opens the check settings from the form before any
// submission (the settings launch) attaches it the same way.
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { queueFolderJob } from '../assignments/folder.js';
import { createAssignment } from '../assignments/store.js';
import type { DatabaseSchema } from '../db/index.js';
import type { Jobs } from '../jobs/index.js';
import { CLAIM } from '../lti/claims.js';
import { lmsOf } from '../lti/product-family.js';

const text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((value) => !value.includes('\0'), 'holds a NUL character');

/** What a Moodle notice says of the course and the assignment, beyond what every notice carries. */
const attachClaims = z.object({
  [CLAIM.context]: z.object({ id: text(255), title: text(1000).optional(), label: text(255).optional() }),
  [CLAIM.activity]: z.object({ id: text(255), title: text(1000).optional() }),
  [CLAIM.deploymentId]: text(255),
});

const toolPlatform = z
  .object({ product_family_code: z.string().max(255).optional() })
  .optional()
  .catch(undefined);

/** Whether a verified notice comes from a Moodle: its registration's product, else the notice's own tool_platform. */
export async function fromMoodle(
  db: Kysely<DatabaseSchema>,
  platformId: string,
  claims: Record<string, unknown>,
): Promise<boolean> {
  const row = await db.selectFrom('platform').select('product_family').where('id', '=', platformId).executeTakeFirst();
  const said = toolPlatform.parse(claims[CLAIM.toolPlatform])?.product_family_code;
  return lmsOf(row?.product_family ?? said) === 'moodle';
}

/** The processor of a Moodle assignment in a course, made now (with its folder job) when there is none. */
async function processorInCourse(
  trx: Kysely<DatabaseSchema>,
  jobs: Jobs,
  platformId: string,
  courseId: string,
  activity: { id: string; title?: string | undefined },
): Promise<string> {
  const found = await trx
    .selectFrom('assignment')
    .select('id')
    .where('platform_id', '=', platformId)
    .where('course_id', '=', courseId)
    .where('kind', '=', 'asset-processor')
    .where('activity_id', '=', activity.id)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (found) return found.id;
  const assignment = await createAssignment(trx, {
    platformId,
    courseId,
    resourceLinkId: null,
    title: activity.title ?? `Moodle assignment ${activity.id}`,
    createdBy: null,
    settingsUnreviewed: true,
    kind: 'asset-processor',
    activityId: activity.id,
  });
  await queueFolderJob(jobs, assignment.id, trx);
  return assignment.id;
}

/**
 * The processor of the Moodle assignment a notice names, made now when there is none: the course (from the context
 * claim) kept or made, then the assignment and its folder job, in one transaction. The course's row is locked by its
 * upsert until the commit, so a class's notices arriving at once for a new assignment make one processor: the others
 * wait on the row, then find it. Null when the notice lacks its course.
 */
export async function attachOnNotice(
  db: Kysely<DatabaseSchema>,
  jobs: Jobs,
  platformId: string,
  claims: Record<string, unknown>,
): Promise<string | null> {
  const parsed = attachClaims.safeParse(claims);
  if (!parsed.success) return null;
  const context = parsed.data[CLAIM.context];
  return db.transaction().execute(async (trx) => {
    const course = await sql<{ id: string }>`
      INSERT INTO course (platform_id, deployment_id, context_id, title, label)
      VALUES (${platformId}, ${parsed.data[CLAIM.deploymentId]}, ${context.id}, ${context.title ?? null}, ${context.label ?? null})
      ON CONFLICT (platform_id, deployment_id, context_id)
        DO UPDATE SET title = COALESCE(excluded.title, course.title), label = COALESCE(excluded.label, course.label)
      RETURNING id`.execute(trx);
    return processorInCourse(trx, jobs, platformId, course.rows[0]!.id, parsed.data[CLAIM.activity]);
  });
}

/**
 * The processor of the Moodle assignment whose check settings a teacher opens from its form (the settings launch),
 * made now when no submission has made it yet: the course row locked first, as a notice's upsert locks it.
 */
export async function attachOnSettingsLaunch(
  db: Kysely<DatabaseSchema>,
  jobs: Jobs,
  request: { platformId: string; courseId: string; activity: { id: string; title?: string | undefined } },
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT id FROM course WHERE id = ${request.courseId} FOR UPDATE`.execute(trx);
    return processorInCourse(trx, jobs, request.platformId, request.courseId, request.activity);
  });
}
