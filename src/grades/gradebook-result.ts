// What the gradebook holds for a user (https://www.imsglobal.org/spec/lti-ags/v2p0/#result-service): asked before
// a final score that may have landed already is sent again.
import { z } from 'zod';
import { AGS_SCOPES, agsCall, parseJson, resultsUrl, type PlatformRef } from './ags.js';
import type { ColumnContext } from './grade-context.js';
import type { GradeDeps } from './grade-deps.js';
import { lineItemFor } from './line-item.js';
import { resultComment } from './score-body.js';

const resultContainer = z.array(
  z
    .object({
      userId: z.string(),
      resultScore: z.number().optional().nullable(),
      resultMaximum: z.number().optional().nullable(),
      // https://www.imsglobal.org/spec/lti-ags/v2p0/#comment-1: the comment the result holds, where the LMS says it.
      comment: z.string().optional().nullable(),
    })
    .passthrough(),
);

/** The user's result as the platform holds it: the score out of 100 and the comment, each null where it says none. */
export interface HeldResult {
  score: number | null;
  comment: string | null;
}

/**
 * The user's result in the line item: `none` when the platform answers that it holds no result for them, the
 * result when it holds one, `unreadable` when it cannot say (the result scope not granted, another answer, one that
 * does not parse). Throws when the platform cannot be reached.
 */
export async function readResult(
  deps: GradeDeps,
  platform: PlatformRef,
  lineItemUrl: string,
  userId: string,
): Promise<HeldResult | 'none' | 'unreadable'> {
  const answer = await agsCall(deps.provider, platform, AGS_SCOPES.result, resultsUrl(lineItemUrl, userId), {
    method: 'GET',
    accept: 'application/vnd.ims.lis.v2.resultcontainer+json',
  });
  if (answer.status !== 200) return 'unreadable';
  const results = resultContainer.safeParse(parseJson(answer.body));
  if (!results.success) return 'unreadable';
  const mine = results.data.find((result) => result.userId === userId);
  if (!mine) return 'none';
  const maximum = typeof mine.resultMaximum === 'number' && mine.resultMaximum > 0 ? mine.resultMaximum : 100;
  return {
    score: typeof mine.resultScore === 'number' ? (mine.resultScore / maximum) * 100 : null,
    comment: mine.comment ?? null,
  };
}

/**
 * The user's result in the line item, as the platform holds it; null when it cannot say (no result, the result
 * scope not granted, an answer that does not parse): then nothing is known, and the caller sends.
 */
export async function heldResult(
  deps: GradeDeps,
  platform: PlatformRef,
  lineItemUrl: string,
  userId: string,
): Promise<HeldResult | null> {
  const held = await readResult(deps, platform, lineItemUrl, userId);
  return typeof held === 'string' ? null : held;
}

/** The user's result in the line item, out of 100; null when the platform holds or says none. */
export async function currentResult(
  deps: GradeDeps,
  platform: PlatformRef,
  lineItemUrl: string,
  userId: string,
): Promise<number | null> {
  return (await heldResult(deps, platform, lineItemUrl, userId))?.score ?? null;
}

/** Whether the gradebook's result for the user is this score already; false when it cannot say. */
export async function gradebookHolds(deps: GradeDeps, context: ColumnContext, score: number): Promise<boolean> {
  try {
    const lineItemUrl = await lineItemFor(deps, context);
    const held = await heldResult(deps, context.platform, lineItemUrl, context.userSubject);
    if (held === null) return false;
    // A result beside the submission holds no score: its comment is compared. An LMS that leaves the comment out of
    // its results (the specification makes it optional) gets the result again: Moodle then replaces the feedback
    // with the same text, Canvas adds the same comment once more (test/fixtures/lms/<lms>/gradebook.md).
    if (context.gradeColumn === 'comment')
      return held.comment === resultComment(score, context.commentShowsSimilarity, context.commentLanguage);
    return held.score !== null && Math.abs(held.score - score) < 0.005;
  } catch (error) {
    deps.logger.warn(
      { err: error, assignmentId: context.assignmentId },
      "Could not read the gradebook's result; the score is sent again",
    );
    return false;
  }
}
