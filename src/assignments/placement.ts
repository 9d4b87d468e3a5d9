// Which assignment a resource-link launch opens: the one bound to the link; else the one deep linking placed
// for it (named in the link's custom parameters); else a new one, whoever launches first. In Moodle a teacher
// often adds the activity and never opens it, so a student's launch creates it with the tool's defaults (marked
// for the instructor to review); its folder at the service is made when the first paper needs it.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { Launch } from '../lti/launch.js';
import { rememberLanguage } from './language.js';
import {
  bindResourceLink,
  createAssignment,
  findByResourceLink,
  getAssignment,
  rememberServiceUrls,
  type Assignment,
} from './store.js';

/** The custom parameter deep linking puts on the link it creates. */
export const ASSIGNMENT_PARAMETER = 'assignment_id';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Placement {
  assignment: Assignment;
  created: boolean;
}

export function titleFor(launch: Launch): string {
  const link = launch.resourceLink?.title?.trim();
  return (link && link.length > 0 ? link : 'Similarity-checked assignment').slice(0, 200);
}

/** The assignment deep linking named in the link's custom parameters, wherever it is: the caller checks whose it is. */
async function namedAssignment(
  db: Kysely<DatabaseSchema>,
  custom: Record<string, unknown>,
): Promise<Assignment | null> {
  const named = custom[ASSIGNMENT_PARAMETER];
  return typeof named === 'string' && UUID.test(named) ? await getAssignment(db, named) : null;
}

/**
 * The assignment a launch's resource link opens, found as placeLaunch finds it (bound to the link, else named by
 * deep linking and bound now) but never created: a launch that only looks (submission review) opens nothing new.
 * Within the launch's platform and course only.
 */
export async function placedAssignment(
  db: Kysely<DatabaseSchema>,
  key: { platformId: string; courseId: string; resourceLinkId: string },
  custom: Record<string, unknown>,
): Promise<Assignment | null> {
  const bound = await findByResourceLink(db, key);
  if (bound) return bound;
  const placed = await namedAssignment(db, custom);
  if (!placed || placed.platformId !== key.platformId || placed.courseId !== key.courseId) return null;
  return bindResourceLink(db, { assignmentId: placed.id, ...key });
}

export async function placeLaunch(
  db: Kysely<DatabaseSchema>,
  launch: Launch,
  identity: { platformId: string; userId: string; courseId: string },
): Promise<Placement> {
  const resourceLinkId = launch.resourceLink!.id;
  const key = { platformId: identity.platformId, courseId: identity.courseId, resourceLinkId };
  const urls = {
    lineItemUrl: launch.lineItemUrl,
    lineItemsUrl: launch.lineItemsUrl,
    membershipsUrl: launch.membershipsUrl,
  };
  let assignment = await findByResourceLink(db, key);
  let created = false;
  if (!assignment) {
    const placed = await namedAssignment(db, launch.custom);
    if (placed && placed.platformId === identity.platformId && placed.courseId === identity.courseId) {
      assignment = await bindResourceLink(db, { assignmentId: placed.id, ...key });
    }
    if (!assignment) {
      // A link copied with its course names the original course's assignment: start from its settings.
      const settings = placed && placed.platformId === identity.platformId ? placed.settings : undefined;
      const settingsUnreviewed = launch.audience !== 'instructor' && settings === undefined;
      try {
        assignment = await createAssignment(db, {
          ...key,
          title: titleFor(launch),
          createdBy: identity.userId,
          settingsUnreviewed,
          ...urls,
          ...(settings ? { settings } : {}),
        });
        created = true;
      } catch (error) {
        // Two first launches at once: the other one created it.
        assignment = await findByResourceLink(db, key);
        if (!assignment) throw error;
      }
    }
  }
  // The links a launch names change seldom: most launches have nothing to write.
  const changed = (Object.keys(urls) as Array<keyof typeof urls>).some(
    (name) => urls[name] !== null && urls[name] !== assignment[name],
  );
  if (changed) await rememberServiceUrls(db, assignment.id, urls);
  await rememberLanguage(db, assignment, launch);
  return { assignment, created };
}
