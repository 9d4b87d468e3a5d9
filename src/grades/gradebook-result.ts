// What the gradebook holds for a user (https://www.imsglobal.org/spec/lti-ags/v2p0/#result-service): asked before
// a final score that may have landed already is sent again.
import { z } from 'zod';
import { AGS_SCOPES, agsCall, parseJson, resultsUrl, type PlatformRef } from './ags.js';
import type { ColumnContext } from './grade-context.js';
import type { GradeDeps } from './grade-deps.js';
import { lineItemFor } from './line-item.js';

const resultContainer = z.array(
  z
    .object({
      userId: z.string(),
      resultScore: z.number().optional().nullable(),
      resultMaximum: z.number().optional().nullable(),
    })
    .passthrough(),
);

/**
 * The user's result in the line item, out of 100, as the platform holds it; null when it cannot say (no result,
 * the result scope not granted, an answer that does not parse): then nothing is known, and the caller sends.
 */
export async function currentResult(
  deps: GradeDeps,
  platform: PlatformRef,
  lineItemUrl: string,
  userId: string,
): Promise<number | null> {
  const answer = await agsCall(deps.provider, platform, AGS_SCOPES.result, resultsUrl(lineItemUrl, userId), {
    method: 'GET',
    accept: 'application/vnd.ims.lis.v2.resultcontainer+json',
  });
  if (answer.status !== 200) return null;
  const results = resultContainer.safeParse(parseJson(answer.body));
  const mine = results.success ? results.data.find((result) => result.userId === userId) : undefined;
  if (typeof mine?.resultScore !== 'number') return null;
  const maximum = typeof mine.resultMaximum === 'number' && mine.resultMaximum > 0 ? mine.resultMaximum : 100;
  return (mine.resultScore / maximum) * 100;
}

/** Whether the gradebook's result for the user is this score already; false when it cannot say. */
export async function gradebookHolds(deps: GradeDeps, context: ColumnContext, score: number): Promise<boolean> {
  // A comment holds no score to compare: the result is sent again (a comment repeated is harmless).
  if (context.gradeColumn === 'comment') return false;
  try {
    const lineItemUrl = await lineItemFor(deps, context);
    const held = await currentResult(deps, context.platform, lineItemUrl, context.userSubject);
    return held !== null && Math.abs(held - score) < 0.005;
  } catch (error) {
    deps.logger.warn(
      { err: error, assignmentId: context.assignmentId },
      "Could not read the gradebook's result; the score is sent again",
    );
    return false;
  }
}
