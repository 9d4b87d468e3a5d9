// A course is the platform's context within one deployment: LTI 1.3 §5.4.1 makes a context id unique only
// "locally to the deployment_id", so two deployments of one platform (two tenants of a hosted LMS) may both have a
// "course-101". Keyed by (platform, context) alone, the second one's instructor landed in the first one's course
// and saw its papers. Existing rows are unique by (platform, context), so they stay unique with the deployment added.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('course').dropConstraint('course_platform_context').execute();
  await db.schema
    .alterTable('course')
    .addUniqueConstraint('course_platform_deployment_context', ['platform_id', 'deployment_id', 'context_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('course').dropConstraint('course_platform_deployment_context').execute();
  await db.schema
    .alterTable('course')
    .addUniqueConstraint('course_platform_context', ['platform_id', 'context_id'])
    .execute();
}
