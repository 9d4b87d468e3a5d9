// Score timestamps: strictly increasing per (line item, user), and the platform takes no score older than the last
// one it holds (https://www.imsglobal.org/spec/lti-ags/v2p0/#timestamp). How far apart is the LMS's quirk.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { quirksFor } from './platform-quirks.js';

export interface ScoreClockKey {
  platformId: string;
  lineItemUrl: string;
  userSubject: string;
}

/**
 * The next score timestamp for (platform, line item, user): now, but at least `gapMs` after the last one sent,
 * reserved in one statement so that two workers never send the same time. `notBefore` later than now moves past
 * a time the platform holds.
 */
export async function nextScoreTimestamp(
  db: Kysely<DatabaseSchema>,
  key: ScoreClockKey,
  notBefore = new Date(),
  gapMs = quirksFor(null).scoreTimestampGapMs,
): Promise<Date> {
  const row = await db
    .insertInto('score_clock')
    .values({
      platform_id: key.platformId,
      line_item_url: key.lineItemUrl,
      user_subject: key.userSubject,
      last_timestamp: notBefore,
    })
    .onConflict((oc) =>
      oc.columns(['platform_id', 'line_item_url', 'user_subject']).doUpdateSet({
        last_timestamp: sql<Date>`greatest(${notBefore}::timestamptz, score_clock.last_timestamp + make_interval(secs => ${gapMs / 1000}))`,
      }),
    )
    .returning('last_timestamp')
    .executeTakeFirstOrThrow();
  return row.last_timestamp;
}

/** Remembers a grade the tool is about to post to the cell (before it leaves: a post whose answer is lost counts). */
export async function rememberGivenScore(db: Kysely<DatabaseSchema>, key: ScoreClockKey, score: number): Promise<void> {
  await sql`
    UPDATE score_clock
       SET given_scores = CASE WHEN ${score}::numeric = ANY(given_scores) THEN given_scores
                               ELSE array_append(given_scores, ${score}::numeric) END
     WHERE platform_id = ${key.platformId} AND line_item_url = ${key.lineItemUrl} AND user_subject = ${key.userSubject}`.execute(
    db,
  );
}

/** The grades the tool ever posted to the cell. */
export async function givenScores(db: Kysely<DatabaseSchema>, key: ScoreClockKey): Promise<number[]> {
  const row = await db
    .selectFrom('score_clock')
    .select('given_scores')
    .where('platform_id', '=', key.platformId)
    .where('line_item_url', '=', key.lineItemUrl)
    .where('user_subject', '=', key.userSubject)
    .executeTakeFirst();
  return (row?.given_scores ?? []).map(Number);
}
