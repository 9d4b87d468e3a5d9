// The grade-post job: sends a submission's state to the LMS gradebook. Before the result: Submitted / Pending
// with the real submission time. With the result: FullyGraded with the similarity as the score. What is posted
// is read from the submission when the job runs, so a late or repeated job never sends an older state.
import { sql, type Kysely } from 'kysely';
import type { Provider } from 'ltijs';
import { assignmentSettings, defaultSettings, type AssignmentSettings } from '../assignments/settings.js';
import type { DatabaseSchema } from '../db/index.js';
import { AGS_SCOPES, SIMILARITY_TAG, accessToken, agsRequest, currentResult, dropAccessToken, findOrCreateLineItem, scoresUrl, type PlatformRef } from './ags.js';

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

/** Where a user's score goes: the platform, the assignment's column settings and the user's LTI id. */
interface ColumnContext {
  userSubject: string;
  platformId: string;
  platform: PlatformRef;
  assignmentId: string;
  assignmentTitle: string;
  resourceLinkId: string | null;
  lineItemUrl: string | null;
  lineItemsUrl: string | null;
  similarityLineItemUrl: string | null;
  gradeColumn: AssignmentSettings['gradeColumn'];
}

interface GradeContext extends ColumnContext {
  submissionId: string;
  state: string;
  gradeState: string;
  attempt: number;
  latestAttempt: number;
  similarity: number | null;
  submittedAt: Date;
  /** The final score last about to be posted, and the one the gradebook acknowledged (null: none). */
  sentScore: number | null;
  acknowledgedScore: number | null;
}

async function loadColumn(db: Kysely<DatabaseSchema>, assignmentId: string, userId: string): Promise<ColumnContext | null> {
  const row = await db
    .selectFrom('assignment as a')
    .innerJoin('platform as p', 'p.id', 'a.platform_id')
    .innerJoin('lti_user as u', (join) => join.on('u.id', '=', userId).onRef('u.platform_id', '=', 'p.id'))
    .select([
      'u.subject', 'p.id as platform_id', 'p.issuer', 'p.client_id',
      'a.id as assignment_id', 'a.title', 'a.resource_link_id', 'a.line_item_url', 'a.line_items_url', 'a.similarity_line_item_url', 'a.settings',
    ])
    .where('a.id', '=', assignmentId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    userSubject: row.subject,
    platformId: row.platform_id,
    platform: { issuer: row.issuer, clientId: row.client_id },
    assignmentId: row.assignment_id,
    assignmentTitle: row.title,
    resourceLinkId: row.resource_link_id,
    lineItemUrl: row.line_item_url,
    lineItemsUrl: row.line_items_url,
    similarityLineItemUrl: row.similarity_line_item_url,
    gradeColumn: assignmentSettings.catch(defaultSettings()).parse(row.settings).gradeColumn,
  };
}

async function loadContext(db: Kysely<DatabaseSchema>, submissionId: string): Promise<GradeContext | null> {
  const row = await db
    .selectFrom('submission as s')
    .select(['s.id', 's.assignment_id', 's.user_id', 's.state', 's.grade_state', 's.attempt', 's.similarity', 's.submitted_at', 's.grade_sent_score', 's.grade_acknowledged_score'])
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
  const column = row ? await loadColumn(db, row.assignment_id, row.user_id) : null;
  if (!row || !column) return null;
  return {
    ...column,
    submissionId: row.id,
    state: row.state,
    gradeState: row.grade_state,
    attempt: row.attempt,
    latestAttempt: Number(row.latest_attempt ?? row.attempt),
    similarity: row.similarity === null ? null : Number(row.similarity),
    submittedAt: row.submitted_at,
    sentScore: row.grade_sent_score === null ? null : Number(row.grade_sent_score),
    acknowledgedScore: row.grade_acknowledged_score === null ? null : Number(row.grade_acknowledged_score),
  };
}

/**
 * The column the score goes to. The assignment's own: the one the launch named, else found or created by tag and
 * resourceId. With gradeColumn "similarity": a column of its own beside the assignment's, found again by tag and
 * resourceId (a course copy, a second process) before one is created; where the platform lets the tool create no
 * columns, the assignment's own.
 */
async function lineItemFor(deps: GradeDeps, context: ColumnContext): Promise<string> {
  const ownColumn = context.gradeColumn === 'similarity' && context.lineItemsUrl !== null;
  if (context.gradeColumn === 'similarity' && !ownColumn) {
    deps.logger.warn({ assignmentId: context.assignmentId }, 'The LMS lets the tool create no gradebook columns: the similarity goes to the assignment\'s own column');
  }
  if (ownColumn && context.similarityLineItemUrl) return context.similarityLineItemUrl;
  if (!ownColumn && context.lineItemUrl) return context.lineItemUrl;
  const lineItemsUrl = context.lineItemsUrl;
  if (!lineItemsUrl) throw new GradeRefused('The LMS gave this assignment no gradebook column and no way to create one (AGS is off for the tool).');
  const column = ownColumn ? ('similarity_line_item_url' as const) : ('line_item_url' as const);
  const token = await accessToken(deps.provider, context.platform, AGS_SCOPES.lineItem);
  // One caller at a time looks for the column and creates it: two scores posted at once must not make two. In
  // this process a queue of turns; across processes a session lock on one connection, with no transaction open
  // while the LMS is asked (the embedded database runs one transaction at a time for all its connections, and
  // its single session would grant every caller the lock).
  return oneAtATime(`line-item:${context.assignmentId}`, () => deps.db.connection().execute(async (conn) => {
    const lock = `line-item:${context.assignmentId}`;
    await sql`SELECT pg_advisory_lock(hashtext(${lock}))`.execute(conn);
    try {
      return await findOrCreateColumn(conn, lineItemsUrl);
    } finally {
      // A connection that failed ends its session, which releases the lock as well.
      await sql`SELECT pg_advisory_unlock(hashtext(${lock}))`.execute(conn).catch(() => undefined);
    }
  }));

  async function findOrCreateColumn(conn: Kysely<DatabaseSchema>, listUrl: string): Promise<string> {
    const known = await conn.selectFrom('assignment').select(['line_item_url', 'similarity_line_item_url']).where('id', '=', context.assignmentId).executeTakeFirst();
    if (known?.[column]) return known[column];
    const otherColumn = ownColumn ? known?.line_item_url : known?.similarity_line_item_url;
    const url = await findOrCreateLineItem(
      listUrl,
      token,
      {
        label: ownColumn ? `Similarity: ${context.assignmentTitle}`.slice(0, 255) : context.assignmentTitle,
        scoreMaximum: 100,
        resourceId: context.assignmentId,
        tag: SIMILARITY_TAG,
        ...(context.resourceLinkId ? { resourceLinkId: context.resourceLinkId } : {}),
      },
      otherColumn ?? null,
    );
    await conn.updateTable('assignment').set({ [column]: url, updated_at: new Date() }).where('id', '=', context.assignmentId).execute();
    return url;
  }
}

const turns = new Map<string, Promise<unknown>>();
/** Runs `work` after every earlier call with the same key in this process has settled. */
async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const mine = (turns.get(key) ?? Promise.resolve()).then(work);
  const done = mine.catch(() => undefined);
  turns.set(key, done);
  try {
    return await mine;
  } finally {
    if (turns.get(key) === done) turns.delete(key);
  }
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

/** The final score the gradebook acknowledged for this attempt, with its timestamp (null: found in the gradebook). */
async function recordAcknowledged(db: Kysely<DatabaseSchema>, submissionId: string, score: number, timestamp: Date | null): Promise<void> {
  await db
    .updateTable('submission')
    .set((eb) => ({
      grade_state: 'posted',
      grade_error: null,
      graded_at: new Date(),
      updated_at: new Date(),
      grade_acknowledged_score: score,
      grade_acknowledged_timestamp: timestamp ?? eb.ref('grade_sent_timestamp'),
    }))
    .where('id', '=', submissionId)
    .execute();
}

/** Whether the gradebook's result for the user is this score already; false when it cannot say. */
async function gradebookHolds(deps: GradeDeps, context: ColumnContext, score: number): Promise<boolean> {
  try {
    const lineItemUrl = await lineItemFor(deps, context);
    const token = await accessToken(deps.provider, context.platform, AGS_SCOPES.result);
    const held = await currentResult(lineItemUrl, token, context.userSubject);
    return held !== null && Math.abs(held - score) < 0.005;
  } catch (error) {
    deps.logger.warn({ err: error, assignmentId: context.assignmentId }, 'Could not read the gradebook\'s result; the score is sent again');
    return false;
  }
}

const isTimestampConflict = (status: number, body: string) => status === 409 || (status === 400 && /timestamp/i.test(body));

/**
 * What a post did: `final` the score is in the gradebook (the caller marks the submission graded), `pending`
 * the receipt is, `refused` the platform will not take it (recorded), `skipped` nothing to send.
 */
export type GradeOutcome = { kind: 'final'; score: number } | { kind: 'pending' } | { kind: 'refused'; reason: string } | { kind: 'skipped' };

/**
 * Posts one score to the user's cell, with a timestamp later than any sent before: a new access token once on 401,
 * a later timestamp on 409 or Canvas's 400 for an old one. Throws GradeRefused when the platform will not take it,
 * any other error when it should be tried again later.
 *
 * Before each send `stillCurrent` says whether the score is still the cell's to have (no newer attempt, no
 * deletion, no change of state since it was read); if not, nothing is sent ('superseded'), lest an older score
 * land over a newer one. A score refused for its timestamp lost to a later post, possibly another job's, so the
 * check matters most before it is sent again.
 */
async function sendScore(
  deps: GradeDeps,
  context: ColumnContext,
  body: (timestamp: Date) => Record<string, unknown>,
  stillCurrent: () => Promise<boolean>,
  beforeSend: (timestamp: Date) => Promise<void> = async () => undefined,
): Promise<{ sent: Date } | 'superseded'> {
  const lineItemUrl = await lineItemFor(deps, context);
  const clock = { platformId: context.platformId, lineItemUrl, userSubject: context.userSubject };
  let token = await accessToken(deps.provider, context.platform, AGS_SCOPES.score);
  let retriedToken = false;
  for (let tries = 0; tries < 4; tries += 1) {
    // Checked before every send, the first included: finding the column and a token can take a while, in which
    // a newer attempt may be scored or this one deleted.
    if (!(await stillCurrent())) return 'superseded';
    const timestamp = await nextScoreTimestamp(deps.db, clock);
    await beforeSend(timestamp);
    const answer = await agsRequest(scoresUrl(lineItemUrl), { method: 'POST', token, contentType: 'application/vnd.ims.lis.v1.score+json', body: body(timestamp) });
    if (answer.status >= 200 && answer.status < 300) return { sent: timestamp };
    if (answer.status === 401 && !retriedToken) {
      retriedToken = true;
      await dropAccessToken(deps.storage, context.platform, AGS_SCOPES.score);
      token = await accessToken(deps.provider, context.platform, AGS_SCOPES.score);
      continue;
    }
    if (isTimestampConflict(answer.status, answer.body)) {
      // The platform holds a later time (another tool's post, a clock ahead of ours): move past it and resend.
      await nextScoreTimestamp(deps.db, clock, new Date(Date.now() + (tries + 1) * MIN_GAP_MS));
      continue;
    }
    if (answer.status === 400 || answer.status === 403 || answer.status === 404 || answer.status === 422) {
      throw new GradeRefused(`The gradebook refused the score (HTTP ${answer.status}): ${answer.body.slice(0, 300)}`);
    }
    throw new Error(`The gradebook answered HTTP ${answer.status}; the score will be sent again.`);
  }
  throw new Error('The gradebook kept refusing the score timestamp; the score will be sent again.');
}

/**
 * Posts the submission's current state; throws (for a retry) on outages, records refusals. A final score already
 * posted, or a user the gradebook said is not a gradable student (Canvas's Student View, a dropped enrolment), is
 * not posted again until an instructor or administrator asks for a resync.
 */
export async function postGrade(deps: GradeDeps, submissionId: string, options: { resync?: boolean } = {}): Promise<GradeOutcome> {
  const context = await loadContext(deps.db, submissionId);
  if (!context || context.state === 'rejected' || context.state === 'failed') return { kind: 'skipped' };
  if (context.gradeState === 'not-gradable' && !options.resync) return { kind: 'skipped' };
  // The receipt's job can run after scoring and post the final score; the scoring's own job then has nothing to add.
  // (Reported as final, so a submission whose post landed just before a crash is still marked graded.)
  if (context.gradeState === 'posted' && context.similarity !== null && !options.resync) return { kind: 'final', score: context.similarity };
  if (context.attempt < context.latestAttempt) return { kind: 'skipped' }; // a newer attempt owns the gradebook cell
  const final = (context.state === 'scored' || context.state === 'graded') && context.similarity !== null;
  // Posting is at least once: a worker that dies (or loses its database) after the gradebook took the score and
  // before it recorded so sends it again. The score about to be sent is written first; when that same score was
  // sent and never acknowledged, the gradebook is asked for the user's result, and a score it already holds is
  // recorded as acknowledged rather than sent again. A resync (someone asked) forgets the record and sends.
  if (final && !options.resync && context.similarity !== null) {
    if (context.acknowledgedScore === context.similarity) return { kind: 'final', score: context.similarity };
    if (context.sentScore === context.similarity && (await gradebookHolds(deps, context, context.similarity))) {
      await recordAcknowledged(deps.db, submissionId, context.similarity, null);
      deps.logger.info({ submissionId }, 'The gradebook already holds this score (an earlier post whose answer was not recorded); not sent again');
      return { kind: 'final', score: context.similarity };
    }
  }
  // Still this submission's cell, in the state this post tells: the latest attempt, not since scored or removed.
  const stillCurrent = async () => {
    const now = await loadContext(deps.db, submissionId);
    return now !== null && now.attempt >= now.latestAttempt && now.state === context.state && now.similarity === context.similarity;
  };
  const recordSending = async (timestamp: Date) => {
    if (final) await deps.db.updateTable('submission').set({ grade_sent_score: context.similarity, grade_sent_timestamp: timestamp }).where('id', '=', submissionId).execute();
  };
  let sent: Date;
  try {
    const outcome = await sendScore(deps, context, (timestamp) => scoreBody(context, timestamp), stillCurrent, recordSending);
    if (outcome === 'superseded') return { kind: 'skipped' };
    sent = outcome.sent;
  } catch (error) {
    if (error instanceof GradeRefused) {
      const notGradable = /not a student|not found in course|incorrect score|422/i.test(error.message);
      await setGradeState(deps.db, submissionId, notGradable ? 'not-gradable' : 'failed', error.message);
      deps.logger.warn({ submissionId, reason: error.message }, 'Score not accepted by the gradebook');
      return { kind: 'refused', reason: error.message };
    }
    throw error;
  }
  if (final) await recordAcknowledged(deps.db, submissionId, context.similarity!, sent);
  else await setGradeState(deps.db, submissionId, 'pending', null);
  return final ? { kind: 'final', score: context.similarity! } : { kind: 'pending' };
}

/**
 * Empties the user's cell after an instructor deleted the attempt it showed and no other attempt has a state to
 * post (AGS: a score without scoreGiven clears the one before). Nothing is sent while another attempt of theirs
 * owns the cell.
 */
export async function clearGrade(deps: GradeDeps, ref: { assignmentId: string; userId: string }): Promise<'cleared' | 'skipped'> {
  // The cell's owner, as for every post: the latest attempt not rejected. One that could not be checked has no
  // score to show, so the cell is emptied under it too.
  const ownerPosts = async () => {
    const owner = await deps.db
      .selectFrom('submission')
      .select('state')
      .where('assignment_id', '=', ref.assignmentId)
      .where('user_id', '=', ref.userId)
      .where('state', '!=', 'rejected')
      .orderBy('attempt', 'desc')
      .limit(1)
      .executeTakeFirst();
    return owner !== undefined && owner.state !== 'failed';
  };
  const column = (await ownerPosts()) ? null : await loadColumn(deps.db, ref.assignmentId, ref.userId);
  if (!column) return 'skipped';
  // A new attempt since the deletion owns the cell: nothing to clear any more.
  const stillEmpty = async () => !(await ownerPosts());
  try {
    const body = (timestamp: Date) => ({
      userId: column.userSubject,
      timestamp: timestamp.toISOString(),
      activityProgress: 'Initialized',
      gradingProgress: 'NotReady',
      comment: 'The submission was deleted by an instructor.',
    });
    if ((await sendScore(deps, column, body, stillEmpty)) === 'superseded') return 'skipped';
  } catch (error) {
    if (!(error instanceof GradeRefused)) throw error;
    deps.logger.warn({ ...ref, reason: error.message }, 'The gradebook did not clear the score');
    return 'skipped';
  }
  return 'cleared';
}
