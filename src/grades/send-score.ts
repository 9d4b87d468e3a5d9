// One score posted to a user's cell (https://www.imsglobal.org/spec/lti-ags/v2p0/#score-publish-service), each
// try with a timestamp later than any sent before, until the platform accepts or refuses it for good.
import { AGS_SCOPES, accessToken, agsCall, scoresUrl } from './ags.js';
import type { ColumnContext } from './grade-context.js';
import type { GradeDeps } from './grade-deps.js';
import { readScoreAnswer } from './platform-answer.js';
import { nextScoreTimestamp, rememberGivenScore } from './score-clock.js';
import type { ScoreBody } from './score-body.js';

const TRIES = 4;

/**
 * Posts one score to the column at `lineItemUrl` (line-item.ts finds it): a new access token once when the platform refuses the one it had (agsCall), a later timestamp
 * when the platform holds a later one (another tool's post, a clock ahead of ours). Throws GradeRefused when the platform
 * will not take it, any other error when it should be tried again later.
 *
 * Before each send `stillCurrent` says whether the score is still the cell's to have (no newer attempt, no
 * deletion, no change of state since it was read); if not, nothing is sent ('superseded'), lest an older score
 * land over a newer one. A score refused for its timestamp lost to a later post, possibly another job's, so the
 * check matters most before it is sent again. `beforeSend` learns each timestamp before its score leaves.
 */
export async function sendScore(
  deps: GradeDeps,
  context: ColumnContext,
  lineItemUrl: string,
  body: (timestamp: Date) => ScoreBody,
  stillCurrent: () => Promise<boolean>,
  beforeSend: (timestamp: Date) => Promise<void> = async () => undefined,
): Promise<{ sent: Date } | 'superseded'> {
  const clock = { platformId: context.platformId, lineItemUrl, userSubject: context.userSubject };
  const gapMs = context.quirks.scoreTimestampGapMs;
  // The token first: a platform that grants none fails the post before any timestamp is taken.
  await accessToken(deps.provider, context.platform, AGS_SCOPES.score);
  for (let tries = 0; tries < TRIES; tries += 1) {
    // Checked before every send, the first included: finding the column and a token can take a while, in which
    // a newer attempt may be scored or this one deleted.
    if (!(await stillCurrent())) return 'superseded';
    const timestamp = await nextScoreTimestamp(deps.db, clock, new Date(), gapMs);
    await beforeSend(timestamp);
    const score = body(timestamp);
    if (typeof score.scoreGiven === 'number') await rememberGivenScore(deps.db, clock, score.scoreGiven);
    const posted = await agsCall(deps.provider, context.platform, AGS_SCOPES.score, scoresUrl(lineItemUrl), {
      method: 'POST',
      contentType: 'application/vnd.ims.lis.v1.score+json',
      body: score,
    });
    const answer = readScoreAnswer(posted, context.quirks);
    if (answer.kind === 'accepted') return { sent: timestamp };
    if (answer.kind === 'timestamp-conflict') {
      await nextScoreTimestamp(deps.db, clock, new Date(Date.now() + (tries + 1) * gapMs), gapMs);
      continue;
    }
    if (answer.kind === 'refused') throw answer.refusal;
    throw new Error(
      answer.kind === 'try-later'
        ? answer.reason
        : `The gradebook answered HTTP ${posted.status} again; the score will be sent again.`,
    );
  }
  throw new Error('The gradebook kept refusing the score timestamp; the score will be sent again.');
}
