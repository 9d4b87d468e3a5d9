// An assignment's folder at the checking service: created on first need (so placing an assignment never waits
// for the service), named after the link and the course and made unique with the assignment id, and kept in
// step with the assignment's settings.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { ServiceConnections } from '../accounts/connections.js';
import { failureOf, type FolderRequest, type PaperService } from '../checker/index.js';
import { QUEUES, type JobData, type Jobs, type Transactional } from '../jobs/index.js';
import type { AssignmentSettings } from './settings.js';
import { getAssignment, type Assignment } from './store.js';

export function folderName(assignment: Assignment, courseTitle: string | null): string {
  const course = courseTitle ? ` - ${courseTitle}` : '';
  // The id's first block keeps two same-named links apart; the service refuses a duplicate name (409).
  return `${assignment.title}${course}`.slice(0, 180) + ` [${assignment.id.slice(0, 8)}]`;
}

export function folderRequest(name: string, settings: AssignmentSettings): FolderRequest {
  return {
    name,
    excludeReferences: settings.excludeReferences,
    excludeQuotes: settings.excludeQuotes,
    excludeSmallSources: settings.excludeSmallSources,
    excludeThresholdWords: settings.excludeThresholdWords,
    excludedPhrases: settings.excludedPhrases,
    grammarCheck: settings.grammarCheck,
    databases: settings.databases,
  };
}

async function markFolderFailed(db: Kysely<DatabaseSchema>, assignmentId: string, reason: string): Promise<void> {
  await db
    .updateTable('assignment')
    .set({ folder_state: 'failed', folder_error: reason, updated_at: new Date() })
    .where('id', '=', assignmentId)
    .execute();
}

async function courseTitle(db: Kysely<DatabaseSchema>, courseId: string): Promise<string | null> {
  const row = await db.selectFrom('course').select(['title', 'label']).where('id', '=', courseId).executeTakeFirst();
  return row?.title ?? row?.label ?? null;
}

/** The assignment's folder id, creating the folder when it has none yet. */
export async function ensureFolder(
  db: Kysely<DatabaseSchema>,
  service: PaperService,
  assignment: Assignment,
): Promise<number> {
  if (assignment.folderId !== null) return assignment.folderId;
  const assignmentId = assignment.id;
  const name = folderName(assignment, await courseTitle(db, assignment.courseId));
  let folderId: number;
  try {
    folderId = await service.createFolder(folderRequest(name, assignment.settings));
  } catch (error) {
    // An earlier create may have reached the service without its answer reaching us.
    const existing = await service.findFolder(name);
    if (existing === null) {
      await markFolderFailed(db, assignmentId, failureOf(error).message);
      throw error;
    }
    folderId = existing;
  }
  // A concurrent job may have stored one first; keep the first.
  const stored = await db
    .updateTable('assignment')
    .set({ folder_id: folderId, folder_state: 'ready', folder_error: null, updated_at: new Date() })
    .where('id', '=', assignmentId)
    .where('folder_id', 'is', null)
    .returning('folder_id')
    .executeTakeFirst();
  return stored ? folderId : (await getAssignment(db, assignmentId))!.folderId!;
}

/** Applies the assignment's current settings to its folder (a folder not created yet gets them at creation). */
export async function applyFolderSettings(
  db: Kysely<DatabaseSchema>,
  service: PaperService,
  assignmentId: string,
): Promise<void> {
  const assignment = await getAssignment(db, assignmentId);
  if (!assignment) return;
  if (assignment.folderId === null) {
    await ensureFolder(db, service, assignment);
    return;
  }
  try {
    await service.updateFolder(
      assignment.folderId,
      folderRequest(folderName(assignment, await courseTitle(db, assignment.courseId)), assignment.settings),
    );
    await db
      .updateTable('assignment')
      .set({ folder_state: 'ready', folder_error: null, updated_at: new Date() })
      .where('id', '=', assignmentId)
      .execute();
  } catch (error) {
    await markFolderFailed(db, assignmentId, failureOf(error).message);
    throw error;
  }
}

/** The folder job's data: its payload, declared with its queue (jobs/queues.ts). */
export type FolderJob = JobData<typeof QUEUES.folder>;

/** Queues the folder job of an assignment (one at a time per assignment: a repeat while one waits is dropped). */
export async function queueFolderJob(jobs: Jobs, assignmentId: string, within?: Transactional): Promise<void> {
  await jobs.send(QUEUES.folder, { assignmentId } satisfies FolderJob, {
    key: assignmentId,
    ...(within ? { within } : {}),
  });
}

/** The folder job: the folder created, or the current settings applied to it, in the account the assignment uses. */
export async function runFolderJob(
  deps: { db: Kysely<DatabaseSchema>; services: Pick<ServiceConnections, 'forAssignment'> },
  job: FolderJob,
): Promise<void> {
  await applyFolderSettings(deps.db, await deps.services.forAssignment(job.assignmentId), job.assignmentId);
}
