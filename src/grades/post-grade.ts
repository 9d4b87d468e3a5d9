// The grade-post job: sends a submission's state to the LMS gradebook. Before the result: Submitted / Pending
// with the real submission time. With the result: FullyGraded with the similarity as the score. What is posted
// is read from the submission when the job runs, so a late or repeated job never sends an older state.
import { sql, type Kysely } from 'kysely';
import type { Provider } from 'ltijs';
import type { DatabaseSchema } from '../db/index.js';
import { AGS_SCOPES, SIMILARITY_TAG, accessToken, agsRequest, dropAccessToken, findOrCreateLineItem, scoresUrl, type PlatformRef } from './ags.js';

export interface GradeDeps {
  db: Kysely<DatabaseSchema>;
  provider: Provider;
  storage: { Delete(collection: string, query: Record<string, unknown>): Promise<unknown> };
  logger: { info(details: object, message: string): void; warn(details: object, message: string): void };
}

/** A failure the platform will not get over by itself: recorded on the submission, not retried. */
export class GradeRefused extends Error {}

const MIN_GAP_MS = 1000;

/**
 * The next score timestamp for (platform, line item, user): now, but at least a second after the last one sent,
 * reserved in one statement so that two workers never send the same time (AGS 3.4.8; Moodle compares seconds).
 */
export async function nextScoreTimestamp(db: Kysely<DatabaseSchema>, key: { platformId: string; lineItemUrl: string; userSubject: string }, notBefore = new Date()): Promise<Date> {
  const row = await db
    .insertInto('score_clock')
    .values({ platform_id: key.platformId, line_item_url: key.lineItemUrl, user_subject: key.userSubject, last_timestamp: notBefore })
    .onConflict((oc) =>
      oc.columns(['platform_id', 'line_item_url', 'user_subject']).doUpdateSet({
        last_timestamp: sql<Date>`greatest(${notBefore}::timestamptz, score_clock.last_timestamp + make_interval(secs => ${MIN_GAP_MS / 1000}))`,
      }),
    )
    .returning('last_timestamp')
    .executeTakeFirstOrThrow();
  return row.last_timestamp;
}

interface GradeContext {
  submissionId: string;
  state: string;
  attempt: number;
  latestAttempt: number;
  similarity: number | null;
  submittedAt: Date;
  userSubject: string;
  platformId: string;
  platform: PlatformRef;
  assignmentId: string;
  assignmentTitle: string;
  resourceLinkId: string | null;
  lineItemUrl: string | null;
  lineItemsUrl: string | null;
}

async function loadContext(db: Kysely<DatabaseSchema>, submissionId: string): Promise<GradeContext | null> {
  const row = await db
    .selectFrom('submission as s')
    .innerJoin('assignment as a', 'a.id', 's.assignment_id')
    .innerJoin('lti_user as u', 'u.id', 's.user_id')
    .innerJoin('platform as p', 'p.id', 'a.platform_id')
    .select([
      's.id', 's.state', 's.attempt', 's.similarity', 's.submitted_at', 'u.subject', 'p.id as platform_id', 'p.issuer', 'p.client_id',
      'a.id as assignment_id', 'a.title', 'a.resource_link_id', 'a.line_item_url', 'a.line_items_url',
    ])
    .select((eb) =>
      eb
        .selectFrom('submission as latest')
        .select((inner) => inner.fn.max('latest.attempt').as('max'))
        .whereRef('latest.assignment_id', '=', 's.assignment_id')
        .whereRef('latest.user_id', '=', 's.user_id')
        .where('latest.state', '!=', 'rejected')
        .as('latest_attempt'),
    )
    .where('s.id', '=', submissionId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    submissionId: row.id,
    state: row.state,
    attempt: row.attempt,
    latestAttempt: Number(row.latest_attempt ?? row.attempt),
    similarity: row.similarity === null ? null : Number(row.similarity),
    submittedAt: row.submitted_at,
    userSubject: row.subject,
    platformId: row.platform_id,
    platform: { issuer: row.issuer, clientId: row.client_id },
    assignmentId: row.assignment_id,
    assignmentTitle: row.title,
    resourceLinkId: row.resource_link_id,
    lineItemUrl: row.line_item_url,
    lineItemsUrl: row.line_items_url,
  };
}

/** The assignment's line item: the one the launch named, else found or created by tag and resourceId. */
async function lineItemFor(deps: GradeDeps, context: GradeContext): Promise<string> {
  if (context.lineItemUrl) return context.lineItemUrl;
  if (!context.lineItemsUrl) throw new GradeRefused('The LMS gave this assignment no gradebook column and no way to create one (AGS is off for the tool).');
  const token = await accessToken(deps.provider, context.platform, AGS_SCOPES.lineItem);
  const url = await findOrCreateLineItem(context.lineItemsUrl, token, {
    label: context.assignmentTitle,
    scoreMaximum: 100,
    resourceId: context.assignmentId,
    tag: SIMILARITY_TAG,
    ...(context.resourceLinkId ? { resourceLinkId: context.resourceLinkId } : {}),
  });
  await deps.db.updateTable('assignment').set({ line_item_url: url, updated_at: new Date() }).where('id', '=', context.assignmentId).execute();
  return url;
}

function scoreBody(context: GradeContext, timestamp: Date): Record<string, unknown> {
  const base = {
    userId: context.userSubject,
    timestamp: timestamp.toISOString(),
    submission: { submittedAt: context.submittedAt.toISOString() },
  };
  if ((context.state === 'scored' || context.state === 'graded') && context.similarity !== null) {
    return {
      ...base,
      scoreGiven: context.similarity,
      scoreMaximum: 100,
      activityProgress: 'Submitted',
      gradingProgress: 'FullyGraded',
      // Plain text, shown to the student and the instructor; leaving it out would clear an earlier comment.
      comment: `Similarity ${context.similarity}%. The full report is in the assignment.`,
      // Canvas: not a new attempt, and never over an instructor's own grade.
      'https://canvas.instructure.com/lti/submission': {
        new_submission: false,
        prioritize_non_tool_grade: true,
        submitted_at: context.submittedAt.toISOString(),
      },
    };
  }
  return { ...base, activityProgress: 'Submitted', gradingProgress: 'Pending', comment: 'Received; the similarity check is running.' };
}

async function setGradeState(db: Kysely<DatabaseSchema>, submissionId: string, state: 'pending' | 'posted' | 'failed' | 'not-gradable', error: string | null): Promise<void> {
  await db
    .updateTable('submission')
    .set({ grade_state: state, grade_error: error, ...(state === 'posted' ? { graded_at: new Date() } : {}), updated_at: new Date() })
    .where('id', '=', submissionId)
    .execute();
}

const isTimestampConflict = (status: number, body: string) => status === 409 || (status === 400 && /timestamp/i.test(body));

/**
 * What a post did: `final` the score is in the gradebook (the caller marks the submission graded), `pending`
 * the receipt is, `refused` the platform will not take it (recorded), `skipped` nothing to send.
 */
export type GradeOutcome = { kind: 'final'; score: number } | { kind: 'pending' } | { kind: 'refused'; reason: string } | { kind: 'skipped' };

/** Posts the submission's current state; throws (for a retry) on outages, records refusals. */
export async function postGrade(deps: GradeDeps, submissionId: string): Promise<GradeOutcome> {
  const context = await loadContext(deps.db, submissionId);
  if (!context || context.state === 'rejected' || context.state === 'failed') return { kind: 'skipped' };
  if (context.attempt < context.latestAttempt) return { kind: 'skipped' }; // a newer attempt owns the gradebook cell
  try {
    const lineItemUrl = await lineItemFor(deps, context);
    let token = await accessToken(deps.provider, context.platform, AGS_SCOPES.score);
    let retriedToken = false;
    for (let tries = 0; tries < 4; tries += 1) {
      const timestamp = await nextScoreTimestamp(deps.db, { platformId: context.platformId, lineItemUrl, userSubject: context.userSubject });
      const answer = await agsRequest(scoresUrl(lineItemUrl), {
        method: 'POST',
        token,
        contentType: 'application/vnd.ims.lis.v1.score+json',
        body: scoreBody(context, timestamp),
      });
      if (answer.status >= 200 && answer.status < 300) {
        const final = (context.state === 'scored' || context.state === 'graded') && context.similarity !== null;
        await setGradeState(deps.db, submissionId, final ? 'posted' : 'pending', null);
        return final ? { kind: 'final', score: context.similarity! } : { kind: 'pending' };
      }
      if (answer.status === 401 && !retriedToken) {
        retriedToken = true;
        await dropAccessToken(deps.storage, context.platform, AGS_SCOPES.score);
        token = await accessToken(deps.provider, context.platform, AGS_SCOPES.score);
        continue;
      }
      if (isTimestampConflict(answer.status, answer.body)) {
        // The platform holds a later time (another tool's post, a clock ahead of ours): move past it and resend.
        await nextScoreTimestamp(deps.db, { platformId: context.platformId, lineItemUrl, userSubject: context.userSubject }, new Date(Date.now() + (tries + 1) * MIN_GAP_MS));
        continue;
      }
      if (answer.status === 400 || answer.status === 403 || answer.status === 404 || answer.status === 422) {
        throw new GradeRefused(`The gradebook refused the score (HTTP ${answer.status}): ${answer.body.slice(0, 300)}`);
      }
      throw new Error(`The gradebook answered HTTP ${answer.status}; the score will be sent again.`);
    }
    throw new Error('The gradebook kept refusing the score timestamp; the score will be sent again.');
  } catch (error) {
    if (error instanceof GradeRefused) {
      const notGradable = /not a student|not found in course|incorrect score|422/i.test(error.message);
      await setGradeState(deps.db, submissionId, notGradable ? 'not-gradable' : 'failed', error.message);
      deps.logger.warn({ submissionId, reason: error.message }, 'Score not accepted by the gradebook');
      return { kind: 'refused', reason: error.message };
    }
    throw error;
  }
}
