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
