// What the platform's answer to a score post means for the tool. The specification leaves error answers to the
// platform (https://www.imsglobal.org/spec/lti-ags/v2p0/#score-publish-service); how each LMS words the ones that
// matter is its quirk (platform-quirks.ts).
import type { AgsAnswer } from './ags.js';
import type { PlatformQuirks } from './platform-quirks.js';

/**
 * A failure the platform will not get over by itself: recorded on the submission, not retried. `notGradable`:
 * the platform said the user is no gradable student of the course (an LMS's test student, a dropped enrolment).
 */
export class GradeRefused extends Error {
  readonly notGradable: boolean;
  constructor(message: string, options: { notGradable?: boolean } = {}) {
    super(message);
    this.name = 'GradeRefused';
    this.notGradable = options.notGradable ?? false;
  }
}

export type ScoreAnswer =
  | { kind: 'accepted' }
  /** The access token is no longer good: a new one, once. */
  | { kind: 'token-rejected' }
  /** The platform holds a later timestamp: a later one, then send again. */
  | { kind: 'timestamp-conflict' }
  | { kind: 'refused'; refusal: GradeRefused }
  /** An outage or an answer that may change: the job tries again later. */
  | { kind: 'try-later'; reason: string };

export function readScoreAnswer(answer: AgsAnswer, quirks: PlatformQuirks): ScoreAnswer {
  if (answer.status >= 200 && answer.status < 300) return { kind: 'accepted' };
  if (answer.status === 401) return { kind: 'token-rejected' };
  if (quirks.isTimestampConflict(answer)) return { kind: 'timestamp-conflict' };
  if ([400, 403, 404, 422].includes(answer.status)) {
    const message = `The gradebook refused the score (HTTP ${answer.status}): ${answer.body.slice(0, 300)}`;
    return { kind: 'refused', refusal: new GradeRefused(message, { notGradable: quirks.isNotGradable(answer) }) };
  }
  return { kind: 'try-later', reason: `The gradebook answered HTTP ${answer.status}; the score will be sent again.` };
}
