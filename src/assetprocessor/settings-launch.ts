// The processor's settings launch (LtiAssetProcessorSettingsRequest): an instructor chose "Modify" on the tool in
// the LMS assignment's editor. The launch names the LMS's assignment (activity) and carries the content item's custom
// parameters; the tool opens the check settings of its processor on that assignment, the same form as its own
// assignments. A processor attached while the LMS assignment was a draft has no activity id yet: its content item's
// custom assignment_id names it, and the activity id is bound to it now, once.
// Its claims are read by lti/messages/processor-settings.ts.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ASSIGNMENT_PARAMETER } from '../assignments/placement.js';
import type { DatabaseSchema } from '../db/index.js';

export interface SettingsRequest {
  platformId: string;
  courseId: string;
  activityId: string;
  custom: Record<string, unknown>;
}

/** The id of the processor's assignment on this activity (binding the activity to a draft's processor), or null. */
export async function processorAssignmentFor(
  db: Kysely<DatabaseSchema>,
  request: SettingsRequest,
): Promise<string | null> {
  const processors = db
    .selectFrom('assignment')
    .select('id')
    .where('platform_id', '=', request.platformId)
    .where('course_id', '=', request.courseId)
    .where('kind', '=', 'asset-processor');
  const bound = await processors
    .where('activity_id', '=', request.activityId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (bound) return bound.id;
  const named = z.string().uuid().safeParse(request.custom[ASSIGNMENT_PARAMETER]);
  if (!named.success) return null;
  // Only a processor no activity has claimed yet: one bound to another LMS assignment stays with it.
  const claimed = await db
    .updateTable('assignment')
    .set({ activity_id: request.activityId })
    .where('id', '=', named.data)
    .where('platform_id', '=', request.platformId)
    .where('course_id', '=', request.courseId)
    .where('kind', '=', 'asset-processor')
    .where('activity_id', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return claimed?.id ?? null;
}
