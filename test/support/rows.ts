// Rows a test of one rule needs around it, written straight into its database: a registered platform with a course,
// an assignment in it, a student.
import { randomUUID } from 'node:crypto';
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

/** An assignment of the tool's own in the course, with default settings; its id. */
export async function assignmentIn(
  db: Database['db'],
  where: { platformId: string; courseId: string },
  title = 'Essay',
): Promise<string> {
  const row = await db
    .insertInto('assignment')
    .values({
      platform_id: where.platformId,
      course_id: where.courseId,
      resource_link_id: randomUUID(),
      title,
      settings: {},
      line_item_url: null,
      line_items_url: null,
      similarity_line_item_url: null,
      memberships_url: null,
      folder_id: null,
      folder_error: null,
      created_by: null,
      checker_account_id: null,
      activity_id: null,
      lms_report_url: null,
      lms_report_scope: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A person of the platform, known by `subject`; their id. */
export async function personOf(db: Database['db'], platformId: string, subject: string): Promise<string> {
  const row = await db
    .insertInto('lti_user')
    .values({ platform_id: platformId, subject, name: null, email: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
