// The Asset Processor's terms (EULA), when the tool has some (ASSET_PROCESSOR_EULA=on): a user accepts them in the
// LtiEulaRequest launch; the tool tells the LMS's EULA service and keeps the acceptance per platform deployment and
// user, as the LMS does. Submissions still arrive from users who have not accepted; the tool does not check their
// files and reports EULA_NOT_ACCEPTED instead (the Asset Processor's error code; lti-notes 2.6).
// Canvas: doc/api/document_processor.md ("EULA")
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { postEulaAcceptance } from '../lti/eula-service.js';

/** The tool's terms as the configuration gives them: a text shown on the page, or the address of a page. */
export type EulaTerms = { text: string } | { url: string };

/** The error code an asset report carries when the file was not checked because its owner has not accepted. */
export const EULA_NOT_ACCEPTED = 'EULA_NOT_ACCEPTED';

/**
 * Whether the terms keep a user's file of this assignment from being checked: true only when the tool has terms
 * (`eulaRequired`, from the configuration) and the user has not accepted them in the assignment's platform deployment.
 */
export async function eulaRefuses(
  db: Kysely<DatabaseSchema>,
  asked: { assignmentId: string; lmsUserId: string },
  eulaRequired: boolean,
): Promise<boolean> {
  if (!eulaRequired) return false;
  const row = await db
    .selectFrom('assignment')
    .innerJoin('course', 'course.id', 'assignment.course_id')
    .leftJoin('eula_acceptance', (join) =>
      join
        .onRef('eula_acceptance.platform_id', '=', 'assignment.platform_id')
        .onRef('eula_acceptance.deployment_id', '=', 'course.deployment_id')
        .on('eula_acceptance.lms_user_id', '=', asked.lmsUserId),
    )
    .select('eula_acceptance.accepted_at')
    .where('assignment.id', '=', asked.assignmentId)
    .executeTakeFirst();
  return !row?.accepted_at;
}

export interface Acceptance {
  platformId: string;
  deploymentId: string;
  /** The user as the LMS names them (the launch's sub). */
  lmsUserId: string;
}

/**
 * A user accepts: the LMS's EULA service is told first (throws ServiceRefused, nothing recorded), then the tool
 * keeps the acceptance. Accepting again sends it again and moves the time.
 */
export async function acceptTerms(
  deps: { db: Kysely<DatabaseSchema>; platform: Parameters<typeof postEulaAcceptance>[0] },
  serviceUrl: string,
  acceptance: Acceptance,
): Promise<void> {
  const acceptedAt = new Date();
  await postEulaAcceptance(deps.platform, serviceUrl, acceptance.lmsUserId, acceptedAt);
  await deps.db
    .insertInto('eula_acceptance')
    .values({
      platform_id: acceptance.platformId,
      deployment_id: acceptance.deploymentId,
      lms_user_id: acceptance.lmsUserId,
      accepted_at: acceptedAt,
    })
    .onConflict((oc) =>
      oc
        .columns(['platform_id', 'deployment_id', 'lms_user_id'])
        .doUpdateSet({ accepted_at: sql`excluded.accepted_at` }),
    )
    .execute();
}
