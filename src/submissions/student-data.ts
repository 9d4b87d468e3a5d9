// A student's data on request: everything the tool holds about them, and its erasure, here and at the service.
// A student is named as the LMS names them: the issuer and their LTI user id (`sub`, which LTI makes unique per
// issuer), on every registration of that issuer (one LMS registered with several client ids is one LMS). What the
// tool holds of them sits in the rows of the person it made of them (lti_user, and what cascades from it) and in
// rows that name them by that LMS user id as text: the files the LMS announced (lms_asset), their acceptance of the
// terms (eula_acceptance), the gradebook's score clock (score_clock), and ltijs's session records (lti_record: name,
// e-mail, roles). Both ways are read and erased here; test/submissions/erasure.security.test.ts lists every table.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { ServiceConnections } from '../accounts/connections.js';
import { forgetFile } from './received-file.js';
import { deletePaperAtService } from './remove.js';

export interface StudentRef {
  issuer: string;
  subject: string;
}

type Db = Kysely<DatabaseSchema>;

/** The registrations of the issuer, and the people the tool made of the student on them. */
async function findStudent(db: Db, ref: StudentRef) {
  const platforms = await db.selectFrom('platform').select(['id', 'name']).where('issuer', '=', ref.issuer).execute();
  const platformIds = platforms.map((p) => p.id);
  const users =
    platformIds.length === 0
      ? []
      : await db
          .selectFrom('lti_user')
          .select(['id', 'subject', 'name', 'email', 'updated_at'])
          .where('platform_id', 'in', platformIds)
          .where('subject', '=', ref.subject)
          .execute();
  return { platforms, platformIds, userIds: users.map((u) => u.id), users };
}

/** The student's page sessions: each keeps its launch (lti/launch-session.ts), which names its issuer and user. */
function sessionRecords(db: Db, ref: StudentRef) {
  return db
    .selectFrom('lti_record')
    .where('collection', '=', 'session')
    .where(sql<boolean>`doc->'launch' @> ${JSON.stringify({ issuer: ref.issuer, subject: ref.subject })}::jsonb`);
}

/** The files the LMS announced for the student, in assignments of the issuer's registrations. */
function lmsFiles(db: Db, platformIds: string[], subject: string) {
  return db
    .selectFrom('lms_asset')
    .innerJoin('assignment', 'assignment.id', 'lms_asset.assignment_id')
    .where('assignment.platform_id', 'in', platformIds)
    .where('lms_asset.lms_user_id', '=', subject);
}

/** Everything about the student, as plain JSON: identity, courses and roles, submissions with their history, the files the LMS sent, terms accepted, sessions. */
export async function exportStudent(db: Db, ref: StudentRef): Promise<object | null> {
  const { platforms, platformIds, userIds, users } = await findStudent(db, ref);
  if (platformIds.length === 0) return null;
  const courses =
    userIds.length === 0
      ? []
      : await db
          .selectFrom('course_member')
          .innerJoin('course', 'course.id', 'course_member.course_id')
          .select(['course.context_id', 'course.title', 'course_member.roles', 'course_member.updated_at'])
          .where('course_member.user_id', 'in', userIds)
          .execute();
  const submissions =
    userIds.length === 0
      ? []
      : await db
          .selectFrom('submission')
          .innerJoin('assignment', 'assignment.id', 'submission.assignment_id')
          .select([
            'submission.id',
            'assignment.title as assignment',
            'submission.attempt',
            'submission.state',
            'submission.file_label',
            'submission.file_type',
            'submission.file_size',
            'submission.sha256',
            'submission.submitted_at',
            'submission.late',
            'submission.paper_id',
            'submission.similarity',
            'submission.ai_score',
            'submission.grammar_score',
            'submission.failure_reason',
            'submission.grade_state',
          ])
          .where('submission.user_id', 'in', userIds)
          .orderBy('submission.submitted_at')
          .execute();
  const events =
    submissions.length === 0
      ? []
      : await db
          .selectFrom('submission_event')
          .select(['submission_id', 'at', 'from_state', 'to_state', 'reason'])
          .where(
            'submission_id',
            'in',
            submissions.map((s) => s.id),
          )
          .orderBy('id')
          .execute();
  // The due dates the LMS stated for them (their extensions), and when they opened a dashboard as an instructor.
  const dueDates =
    userIds.length === 0
      ? []
      : await db
          .selectFrom('student_due_date')
          .innerJoin('assignment', 'assignment.id', 'student_due_date.assignment_id')
          .select(['assignment.title as assignment', 'student_due_date.due_at', 'student_due_date.stated_at'])
          .where('student_due_date.user_id', 'in', userIds)
          .execute();
  const dashboardVisits =
    userIds.length === 0
      ? []
      : await db
          .selectFrom('instructor_visit')
          .innerJoin('assignment', 'assignment.id', 'instructor_visit.assignment_id')
          .select(['assignment.title as assignment', 'instructor_visit.seen_at', 'instructor_visit.previous_seen_at'])
          .where('instructor_visit.user_id', 'in', userIds)
          .execute();
  const files = await lmsFiles(db, platformIds, ref.subject)
    .select([
      'assignment.title as assignment',
      'lms_asset.lms_submission_id',
      'lms_asset.asset_id',
      'lms_asset.title',
      'lms_asset.filename',
      'lms_asset.content_type',
      'lms_asset.size',
      'lms_asset.checksum',
      'lms_asset.url',
      'lms_asset.state',
      'lms_asset.received_at',
      'lms_asset.submission_id',
      'lms_asset.error_code',
      'lms_asset.error_comment',
    ])
    .orderBy('lms_asset.received_at')
    .execute();
  const termsAccepted = await db
    .selectFrom('eula_acceptance')
    .select(['deployment_id', 'accepted_at'])
    .where('platform_id', 'in', platformIds)
    .where('lms_user_id', '=', ref.subject)
    .execute();
  const gradePosts = await db
    .selectFrom('score_clock')
    .select(['line_item_url', 'last_timestamp'])
    .where('platform_id', 'in', platformIds)
    .where('user_subject', '=', ref.subject)
    .execute();
  const sessions = await sessionRecords(db, ref)
    .select(['collection', 'doc', 'created_at', 'expires_at'])
    .orderBy('id')
    .execute();
  if (
    users.length === 0 &&
    files.length === 0 &&
    termsAccepted.length === 0 &&
    gradePosts.length === 0 &&
    sessions.length === 0
  )
    return null;
  return {
    exportedAt: new Date().toISOString(),
    platform: { issuer: ref.issuer, names: platforms.map((p) => p.name) },
    user: {
      subject: ref.subject,
      name: users.find((u) => u.name)?.name ?? null,
      email: users.find((u) => u.email)?.email ?? null,
      lastSeen:
        users
          .map((u) => u.updated_at)
          .sort()
          .at(-1) ?? null,
    },
    courses: courses.map((c) => ({ contextId: c.context_id, title: c.title, roles: c.roles, lastSeen: c.updated_at })),
    submissions: submissions.map((s) => ({
      ...s,
      history: events.filter((e) => e.submission_id === s.id).map(({ submission_id: _id, ...e }) => e),
    })),
    dueDates: dueDates.map((d) => ({ assignment: d.assignment, dueAt: d.due_at, statedAt: d.stated_at })),
    dashboardVisits: dashboardVisits.map((v) => ({
      assignment: v.assignment,
      seenAt: v.seen_at,
      previousSeenAt: v.previous_seen_at,
    })),
    filesFromTheLms: files,
    termsAccepted: termsAccepted.map((t) => ({ deploymentId: t.deployment_id, acceptedAt: t.accepted_at })),
    gradePosts: gradePosts.map((g) => ({ lineItemUrl: g.line_item_url, lastTimestamp: g.last_timestamp })),
    sessions: sessions.map((s) => ({
      kind: s.collection,
      record: s.doc,
      createdAt: s.created_at,
      expiresAt: s.expires_at,
    })),
  };
}

export interface ErasureReport {
  submissions: number;
  papersDeletedAtService: number;
  papersNotDeleted: Array<{ paperId: number; reason: string }>;
  /** Submissions still on their way to the service (no paper id yet), and files the LMS announced that are still being fetched: kept for a later run. */
  onTheirWay: number;
  /** Files the LMS announced for the student whose records were erased. */
  lmsFiles: number;
}

/**
 * Deletes the student's papers at the service, then every row and file of theirs here. A paper the service
 * could not delete is reported and its row kept, so the erasure can be run again; nothing is half-erased here.
 * A paper still being sent is kept too: deleting its row now would leave the copy its upload job is about to
 * store at the service, where no erasure would find it. So is a file the LMS announced that is still being fetched
 * (its job would make a submission of it), and the record of a file whose submission is kept.
 */
export async function eraseStudent(
  db: Db,
  services: ServiceConnections,
  ref: StudentRef,
): Promise<ErasureReport | null> {
  const { platformIds, userIds } = await findStudent(db, ref);
  if (platformIds.length === 0 || !(await exportStudent(db, ref))) return null;
  const submissions =
    userIds.length === 0
      ? []
      : await db
          .selectFrom('submission')
          .innerJoin('assignment', 'assignment.id', 'submission.assignment_id')
          .select([
            'submission.id',
            'submission.state',
            'submission.paper_id',
            'submission.file_id',
            'assignment.folder_id',
            'assignment.checker_account_id',
          ])
          .where('submission.user_id', 'in', userIds)
          .execute();
  const files = await lmsFiles(db, platformIds, ref.subject)
    .select(['lms_asset.id', 'lms_asset.state', 'lms_asset.submission_id'])
    .execute();
  const report: ErasureReport = {
    submissions: submissions.length,
    papersDeletedAtService: 0,
    papersNotDeleted: [],
    onTheirWay: 0,
    lmsFiles: 0,
  };
  const keep = new Set<string>();
  for (const submission of submissions) {
    if (submission.paper_id === null && (submission.state === 'received' || submission.state === 'uploading')) {
      report.onTheirWay += 1;
      keep.add(submission.id);
      continue;
    }
    if (submission.paper_id === null || submission.folder_id === null) continue;
    const outcome = await deletePaperAtService(() => services.forAccount(submission.checker_account_id), {
      folderId: Number(submission.folder_id),
      paperId: Number(submission.paper_id),
    });
    if (outcome === 'deleted') report.papersDeletedAtService += 1;
    else if (typeof outcome === 'object') {
      report.papersNotDeleted.push({ paperId: Number(submission.paper_id), reason: outcome.refused });
      keep.add(submission.id);
    }
  }
  const fetching = files.filter((file) => file.state === 'received');
  report.onTheirWay += fetching.length;
  const goneFiles = files
    .filter((file) => file.state !== 'received' && !(file.submission_id !== null && keep.has(file.submission_id)))
    .map((file) => file.id);
  report.lmsFiles = goneFiles.length;
  for (const submission of submissions)
    if (!keep.has(submission.id)) await forgetFile(db, { fileId: submission.file_id });
  const everythingGoes = keep.size === 0 && fetching.length === 0;
  await db.transaction().execute(async (trx) => {
    // An asset's reports cascade with it.
    if (goneFiles.length > 0) await trx.deleteFrom('lms_asset').where('id', 'in', goneFiles).execute();
    if (everythingGoes) {
      // Submissions, their events and memberships cascade; an assignment the student's launch created forgets them.
      if (userIds.length > 0) await trx.deleteFrom('lti_user').where('id', 'in', userIds).execute();
    } else {
      const gone = submissions.map((s) => s.id).filter((id) => !keep.has(id));
      if (gone.length > 0) await trx.deleteFrom('submission').where('id', 'in', gone).execute();
      if (userIds.length > 0) {
        await trx.deleteFrom('student_due_date').where('user_id', 'in', userIds).execute();
        await trx.deleteFrom('instructor_visit').where('user_id', 'in', userIds).execute();
      }
    }
    await trx
      .deleteFrom('eula_acceptance')
      .where('platform_id', 'in', platformIds)
      .where('lms_user_id', '=', ref.subject)
      .execute();
    await trx
      .deleteFrom('score_clock')
      .where('platform_id', 'in', platformIds)
      .where('user_subject', '=', ref.subject)
      .execute();
    await trx.deleteFrom('lti_record').where('id', 'in', sessionRecords(trx, ref).select('id')).execute();
  });
  return report;
}
