// The grades part as the rest of the tool calls it: post a submission's score or clear a user's cell (the worker's
// jobs), resync (the pages), and what deep linking and the tests name.
export { AGS_SCOPES, SIMILARITY_TAG } from './ags.js';
export { clearGrade } from './clear-grade.js';
export type { GradeDeps } from './grade-deps.js';
export { GradeRefused } from './platform-answer.js';
export { postGrade, type GradeOutcome } from './post-grade.js';
export { queueGradeResync, resyncGrade } from './resync.js';
export { nextScoreTimestamp } from './score-clock.js';
