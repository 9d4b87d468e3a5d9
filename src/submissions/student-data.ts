// A student's data on request: everything the tool holds about them, and its erasure, here and at the service.
import { rm } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { ServiceConnections } from '../accounts/connections.js';
import { deletePaperAtService } from './remove.js';

export interface StudentRef {
  issuer: string;
  subject: string;
}

async function findUser(db: Kysely<DatabaseSchema>, ref: StudentRef) {
  return db
    .selectFrom('lti_user')
    .innerJoin('platform', 'platform.id', 'lti_user.platform_id')
    .select(['lti_user.id', 'lti_user.subject', 'lti_user.name', 'lti_user.email', 'lti_user.updated_at', 'platform.issuer', 'platform.name as platform_name'])
    .where('platform.issuer', '=', ref.issuer)
    .where('lti_user.subject', '=', ref.subject)
    .executeTakeFirst();
}

/** Everything about the student, as plain JSON: identity, courses and roles, submissions with their history. */
export async function exportStudent(db: Kysely<DatabaseSchema>, ref: StudentRef): Promise<object | null> {
  const user = await findUser(db, ref);
  if (!user) return null;
  const courses = await db
    .selectFrom('course_member')
    .innerJoin('course', 'course.id', 'course_member.course_id')
    .select(['course.context_id', 'course.title', 'course_member.roles', 'course_member.updated_at'])
    .where('course_member.user_id', '=', user.id)
    .execute();
  const submissions = await db
    .selectFrom('submission')
    .innerJoin('assignment', 'assignment.id', 'submission.assignment_id')
    .select([
      'submission.id', 'assignment.title as assignment', 'submission.attempt', 'submission.state', 'submission.file_label', 'submission.file_type',
      'submission.file_size', 'submission.sha256', 'submission.submitted_at', 'submission.late', 'submission.paper_id', 'submission.similarity',
      'submission.ai_score', 'submission.grammar_score', 'submission.failure_reason', 'submission.grade_state',
    ])
    .where('submission.user_id', '=', user.id)
    .orderBy('submission.submitted_at')
    .execute();
  const events = submissions.length === 0 ? [] : await db
    .selectFrom('submission_event')
    .select(['submission_id', 'at', 'from_state', 'to_state', 'reason'])
    .where('submission_id', 'in', submissions.map((s) => s.id))
    .orderBy('id')
    .execute();
  return {
    exportedAt: new Date().toISOString(),
    platform: { issuer: user.issuer, name: user.platform_name },
    user: { subject: user.subject, name: user.name, email: user.email, lastSeen: user.updated_at },
    courses: courses.map((c) => ({ contextId: c.context_id, title: c.title, roles: c.roles, lastSeen: c.updated_at })),
    submissions: submissions.map((s) => ({ ...s, history: events.filter((e) => e.submission_id === s.id).map(({ submission_id: _id, ...e }) => e) })),
  };
}

export interface ErasureReport {
  submissions: number;
  papersDeletedAtService: number;
  papersNotDeleted: Array<{ paperId: number; reason: string }>;
  /** Submissions still on their way to the service (no paper id yet): kept, with their files, for a later run. */
  onTheirWay: number;
}

/**
 * Deletes the student's papers at the service, then every row and file of theirs here. A paper the service
 * could not delete is reported and its row kept, so the erasure can be run again; nothing is half-erased here.
 * A paper still being sent is kept too: deleting its row now would leave the copy its upload job is about to
 * store at the service, where no erasure would find it.
 */
export async function eraseStudent(db: Kysely<DatabaseSchema>, services: ServiceConnections, ref: StudentRef): Promise<ErasureReport | null> {
  const user = await findUser(db, ref);
  if (!user) return null;
  const submissions = await db
    .selectFrom('submission')
    .innerJoin('assignment', 'assignment.id', 'submission.assignment_id')
    .select(['submission.id', 'submission.state', 'submission.paper_id', 'submission.stored_path', 'assignment.folder_id', 'assignment.checker_account_id'])
    .where('submission.user_id', '=', user.id)
    .execute();
  const report: ErasureReport = { submissions: submissions.length, papersDeletedAtService: 0, papersNotDeleted: [], onTheirWay: 0 };
  const keep = new Set<string>();
  for (const submission of submissions) {
    if (submission.paper_id === null && (submission.state === 'received' || submission.state === 'uploading')) {
      report.onTheirWay += 1;
      keep.add(submission.id);
      continue;
    }
    if (submission.paper_id === null || submission.folder_id === null) continue;
    const outcome = await deletePaperAtService(() => services.forAccount(submission.checker_account_id), { folderId: Number(submission.folder_id), paperId: Number(submission.paper_id) });
    if (outcome === 'deleted') report.papersDeletedAtService += 1;
    else if (typeof outcome === 'object') {
      report.papersNotDeleted.push({ paperId: Number(submission.paper_id), reason: outcome.refused });
      keep.add(submission.id);
    }
  }
  for (const submission of submissions) if (!keep.has(submission.id) && submission.stored_path) await rm(submission.stored_path, { force: true });
  if (keep.size === 0) {
    await db.deleteFrom('lti_user').where('id', '=', user.id).execute(); // submissions, events and memberships cascade
  } else {
    const gone = submissions.map((s) => s.id).filter((id) => !keep.has(id));
    if (gone.length > 0) await db.deleteFrom('submission').where('id', 'in', gone).execute();
  }
  return report;
}
