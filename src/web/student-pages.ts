// The student's side of an assignment: what to submit, the upload, the receipts, the live status, and the
// results as far as the assignment lets students see them.
import { Router } from 'express';
import type { Assignment } from '../assignments/store.js';
import { studentResults } from '../reports/visibility.js';
import { endedWithoutResult, isSettled } from '../submissions/state.js';
import { attemptsOf, receiptOf, type Submission } from '../submissions/store.js';
import { assignmentFor } from '../assignments/access.js';
import { requireSession, sessionOf, type SessionDeps } from './require-session.js';

const STATE_TEXT: Record<Submission['state'], string> = {
  received: 'Received',
  uploading: 'Sent for checking',
  processing: 'Being analysed (usually 10 to 15 minutes)',
  scored: 'Checked',
  graded: 'Checked',
  rejected: 'Not accepted',
  failed: 'Could not be checked',
};

export function studentView(assignment: Assignment, submission: Submission) {
  return {
    ...receiptOf(submission),
    stateText: STATE_TEXT[submission.state],
    final: isSettled(submission.state),
    failureReason: endedWithoutResult(submission.state) ? submission.failureReason : null,
    ...studentResults(assignment, submission),
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

export function studentRoutes(deps: SessionDeps): Router {
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
