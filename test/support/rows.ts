// Rows a test of one rule needs around it, written straight into its database: a registered platform with a course.
import type { Database } from '../../src/db/index.js';

/** A platform registered by the command line, and one course of it; their ids. */
export async function platformWithCourse(
  db: Database['db'],
  name: string,
): Promise<{ platformId: string; courseId: string }> {
  const host = `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example`;
  const platform = await db
    .insertInto('platform')
    .values({
      name,
      issuer: host,
      client_id: name,
      auth_url: `${host}/auth`,
      token_url: `${host}/token`,
      jwks_url: `${host}/jwks`,
      registered_by: 'cli',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const course = await db
    .insertInto('course')
    .values({ platform_id: platform.id, deployment_id: '1', context_id: 'course-1', title: 'Course', label: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { platformId: platform.id, courseId: course.id };
}
