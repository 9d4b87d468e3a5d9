// The student's side of an assignment: what to submit, the upload, the receipts, the live status, and the
// results as far as the assignment lets students see them.
import { Router } from 'express';
import type { Kysely } from 'kysely';
import type { Assignment } from '../assignments/store.js';
import type { ReportKind } from '../checker/index.js';
import type { DatabaseSchema } from '../db/index.js';
import type { PostgresLtiStorage } from '../lti/storage.js';
import { attemptsOf, receiptOf, type Submission } from '../submissions/store.js';
import { assignmentFor } from './assignment-access.js';
import { requireSession, sessionOf } from './session.js';

const STATE_TEXT: Record<Submission['state'], string> = {
  received: 'Received',
  uploading: 'Sent for checking',
  processing: 'Being analysed (usually 10 to 15 minutes)',
  scored: 'Checked',
  graded: 'Checked',
  rejected: 'Not accepted',
  failed: 'Could not be checked',
};

/** Whether students see their results now, under the assignment's setting. */
export function resultsVisible(assignment: Assignment, now = new Date()): boolean {
  const rule = assignment.settings.resultsVisibleTo;
  if (rule === 'instructors') return false;
  if (rule === 'students-after-due') return assignment.settings.dueAt !== null && now > new Date(assignment.settings.dueAt);
  return true;
}

/**
 * Whether a student may open a report of this kind of their own checked paper (once results are visible): the AI
 * report and the one-page summary (which states the AI score too) only where the assignment shows the AI score.
 */
export function studentMayOpen(assignment: Assignment, kind: ReportKind): boolean {
  return (kind !== 'ai' && kind !== 'summary') || assignment.settings.showAiScoreToStudents;
}

const REPORT_LABELS: Record<ReportKind, string> = { similarity: 'Similarity report', summary: 'Summary', ai: 'AI report', grammar: 'Grammar report' };

/** The reports a student is offered of their own checked paper. */
function studentReports(assignment: Assignment, submission: Submission): Array<{ kind: ReportKind; label: string }> {
  const kinds: ReportKind[] = ['similarity', 'summary', 'ai', ...(submission.grammarScore !== null ? (['grammar'] as const) : [])];
  return kinds.filter((kind) => studentMayOpen(assignment, kind)).map((kind) => ({ kind, label: REPORT_LABELS[kind] }));
}

export function studentView(assignment: Assignment, submission: Submission) {
  const visible = resultsVisible(assignment) && (submission.state === 'scored' || submission.state === 'graded');
  return {
    ...receiptOf(submission),
    stateText: STATE_TEXT[submission.state],
    final: ['scored', 'graded', 'rejected', 'failed'].includes(submission.state),
    failureReason: submission.state === 'rejected' || submission.state === 'failed' ? submission.failureReason : null,
    similarity: visible ? submission.similarity : null,
    aiScore: visible && assignment.settings.showAiScoreToStudents ? submission.aiScore : null,
    reports: visible ? studentReports(assignment, submission) : [],
  };
}

export function receiptText(assignmentTitle: string, submission: Submission): string {
  const receipt = receiptOf(submission);
  return [
    'Submission receipt',
    `Assignment:    ${assignmentTitle}`,
    `Submission id: ${receipt.submissionId}`,
    `Attempt:       ${receipt.attempt}`,
    `Received at:   ${receipt.receivedAt}`,
    `File:          ${receipt.fileName}`,
    `Size:          ${receipt.size} bytes`,
    `SHA-256:       ${receipt.sha256}`,
    receipt.late ? 'Submitted after the due date.' : '',
    '',
  ].join('\n');
}

export function studentRoutes(deps: { db: Kysely<DatabaseSchema>; storage: PostgresLtiStorage; encryptionKey: string }): Router {
  const router = Router();
  const session = requireSession(deps);

  router.get('/assignments/:id/my-submissions', session, async (req, res) => {
    const s = sessionOf(res);
    const assignment = await assignmentFor(deps.db, s, req.params.id);
    if (typeof assignment === 'number') return void res.status(assignment).json({ error: 'Not available.' });
    const attempts = await attemptsOf(deps.db, assignment.id, s.userId);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ submissions: attempts.map((submission) => studentView(assignment, submission)) });
  });

  router.get('/assignments/:id/submissions/:submissionId/receipt', session, async (req, res) => {
    const s = sessionOf(res);
    const assignment = await assignmentFor(deps.db, s, req.params.id);
    if (typeof assignment === 'number') return void res.status(assignment).type('text/plain').send('Not available.\n');
    const submission = (await attemptsOf(deps.db, assignment.id, s.userId)).find((a) => a.id === req.params.submissionId);
    if (!submission) return void res.status(404).type('text/plain').send('There is no such submission of yours.\n');
    res.setHeader('Content-Disposition', `attachment; filename="receipt-${submission.id}.txt"`);
    res.type('text/plain').send(receiptText(assignment.title, submission));
  });

  return router;
}
