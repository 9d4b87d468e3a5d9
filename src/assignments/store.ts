// Assignments in the database: finding the one a launch opens, creating it, binding it to its resource link.
import type { Kysely, Selectable } from 'kysely';
import type { AssignmentKind, AssignmentTable, DatabaseSchema } from '../db/index.js';
import { defaultSettings, storedSettings, type AssignmentSettings } from './settings.js';

export interface Assignment {
  id: string;
  platformId: string;
  courseId: string;
  resourceLinkId: string | null;
  title: string;
  settings: AssignmentSettings;
  lineItemUrl: string | null;
  lineItemsUrl: string | null;
  membershipsUrl: string | null;
  folderId: number | null;
  folderState: 'pending' | 'ready' | 'failed';
  folderError: string | null;
  /** A student opened it first, so it has the tool's defaults, and no instructor has saved its settings since. */
  settingsUnreviewed: boolean;
  kind: AssignmentKind;
  /** The service account its folder lives in (null: the default account); the account holds its papers. */
  checkerAccountId: string | null;
  /** The language its gradebook is written in, as its instructors' launches stated it (language.ts); null: none yet. */
  lmsLanguage: string | null;
}

function toAssignment(row: Selectable<AssignmentTable>): Assignment {
  return {
    id: row.id,
    platformId: row.platform_id,
    courseId: row.course_id,
    resourceLinkId: row.resource_link_id,
    title: row.title,
    settings: storedSettings.parse(row.settings),
    lineItemUrl: row.line_item_url,
    lineItemsUrl: row.line_items_url,
    membershipsUrl: row.memberships_url,
    folderId: row.folder_id === null ? null : Number(row.folder_id),
    folderState: row.folder_state,
    folderError: row.folder_error,
    settingsUnreviewed: row.settings_unreviewed,
    kind: row.kind,
    checkerAccountId: row.checker_account_id,
    lmsLanguage: row.lms_language ?? null,
  };
}

export interface NewAssignment {
  platformId: string;
  courseId: string;
  resourceLinkId: string | null;
  title: string;
  /** Null: made by the LMS's notice (a Moodle assignment's first), not by a person's launch. */
  createdBy: string | null;
  lineItemUrl?: string | null;
  lineItemsUrl?: string | null;
  membershipsUrl?: string | null;
  settings?: AssignmentSettings;
  /** Created on a student's launch: the defaults stand until an instructor saves settings. */
  settingsUnreviewed?: boolean;
  kind?: AssignmentKind;
  activityId?: string | null;
}

export async function createAssignment(db: Kysely<DatabaseSchema>, input: NewAssignment): Promise<Assignment> {
  const row = await db
    .insertInto('assignment')
    .values({
      platform_id: input.platformId,
      course_id: input.courseId,
      resource_link_id: input.resourceLinkId,
      title: input.title,
      settings: JSON.stringify(input.settings ?? defaultSettings()),
      line_item_url: input.lineItemUrl ?? null,
      line_items_url: input.lineItemsUrl ?? null,
      memberships_url: input.membershipsUrl ?? null,
      created_by: input.createdBy,
      settings_unreviewed: input.settingsUnreviewed ?? false,
      kind: input.kind ?? 'gradebook',
      activity_id: input.activityId ?? null,
      checker_account_id: (eb) =>
        eb.selectFrom('platform').select('checker_account_id').where('id', '=', input.platformId),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAssignment(row);
}

export async function getAssignment(db: Kysely<DatabaseSchema>, id: string): Promise<Assignment | null> {
  const row = await db.selectFrom('assignment').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toAssignment(row) : null;
}

export async function findByResourceLink(
  db: Kysely<DatabaseSchema>,
  key: { platformId: string; courseId: string; resourceLinkId: string },
): Promise<Assignment | null> {
  const row = await db
    .selectFrom('assignment')
    .selectAll()
    .where('platform_id', '=', key.platformId)
    .where('course_id', '=', key.courseId)
    .where('resource_link_id', '=', key.resourceLinkId)
    .executeTakeFirst();
  return row ? toAssignment(row) : null;
}

/**
 * Binds an assignment placed by deep linking to the resource link the platform created for it, on that link's
 * first launch. Only an unbound assignment of the same platform and course is bound; returns it, or null.
 */
export async function bindResourceLink(
  db: Kysely<DatabaseSchema>,
  key: { assignmentId: string; platformId: string; courseId: string; resourceLinkId: string },
): Promise<Assignment | null> {
  const row = await db
    .updateTable('assignment')
    .set({ resource_link_id: key.resourceLinkId, updated_at: new Date() })
    .where('id', '=', key.assignmentId)
    .where('platform_id', '=', key.platformId)
    .where('course_id', '=', key.courseId)
    .where('resource_link_id', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? toAssignment(row) : null;
}

/** Keeps the AGS and NRPS endpoints of the latest launch: platforms may move them (AGS 3.1). */
export async function rememberServiceUrls(
  db: Kysely<DatabaseSchema>,
  assignmentId: string,
  urls: { lineItemUrl: string | null; lineItemsUrl: string | null; membershipsUrl: string | null },
): Promise<void> {
  await db
    .updateTable('assignment')
    .set((eb) => ({
      line_item_url: urls.lineItemUrl ?? eb.ref('line_item_url'),
      line_items_url: urls.lineItemsUrl ?? eb.ref('line_items_url'),
      memberships_url: urls.membershipsUrl ?? eb.ref('memberships_url'),
      updated_at: new Date(),
    }))
    .where('id', '=', assignmentId)
    .execute();
}

/** Replaces the assignment's settings (an instructor has now chosen them); its folder at the service is marked as waiting for them. */
export async function replaceSettings(
  db: Kysely<DatabaseSchema>,
  assignmentId: string,
  settings: AssignmentSettings,
): Promise<void> {
  await db
    .updateTable('assignment')
    .set({
      settings: JSON.stringify(settings),
      settings_unreviewed: false,
      folder_state: 'pending',
      updated_at: new Date(),
    })
    .where('id', '=', assignmentId)
    .execute();
}
