// POST /assignments/:id/submissions: a student's upload. The ltik must come in the query or the Authorization
// header (not in the form body), so that the session is known before a byte of the file is read.
import type { Router } from 'express';
import { assignmentFor } from '../assignments/access.js';
import { SubmitRefused, submitPaper, type SubmitDeps } from '../submissions/submit.js';
import { claimShare } from './admission.js';
import { assignmentPath } from './launches/landing.js';
import { requireSession, sessionOf } from './require-session.js';
import { sendMessage, wordsOf } from './views.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

export function submissionRoutes(tool: Tool): Router {
  const submitting: SubmitDeps = {
    ...tool,
    uploadIdleTimeoutMs: tool.settings.http.uploadIdleTimeoutMs,
    uploadMinRate: tool.settings.http.uploadMinRate,
  };
  const router = toolRouter();
  // The student's attempts are read with the session: the rules look at them before the file is read.
  router.post('/assignments/:id/submissions', requireSession(tool), async (req, res) => {
    const session = sessionOf(res);
    // One person's uploads, and one platform's, hold at most their share of the upload places (admission.ts).
    if (!claimShare(res, `person ${session.userId}`, tool.settings.uploadsPerPerson)) return;
    if (!claimShare(res, `platform ${session.platformId}`)) return;
    const assignment = await assignmentFor(tool.db, session, req.params.id);
    if (assignment === 404) return res.status(404).json({ error: 'There is no such assignment.' });
    if (assignment === 403) return res.status(403).json({ error: 'This assignment belongs to another course.' });
    if (session.launch.audience !== 'learner')
      return res.status(403).json({ error: 'Only students of the course submit papers here.' });
    // A plain form post (no script in the page) gets pages back; the page's script asks for JSON.
    const wantsPage = req.accepts(['json', 'html']) === 'html';
    try {
      const result = await submitPaper(submitting, assignment, session, req);
      if (wantsPage) return res.redirect(303, assignmentPath(assignment.id, session.ltik));
      res.status(result.duplicate ? 200 : 201).json({ ...result.receipt, duplicate: result.duplicate });
    } catch (error) {
      if (!(error instanceof SubmitRefused)) throw error;
      // A stalled upload will not send the rest of its body: close the connection after the answer rather than
      // keep the socket waiting for it.
      if (error.status === 408) res.setHeader('Connection', 'close');
      if (wantsPage) {
        const words = wordsOf(res);
        return void sendMessage(res, error.status, words.t('refused.notSubmitted'), words.say(error.sentence));
      }
      res.status(error.status).json({ error: wordsOf(res).say(error.sentence) });
    }
  });
  return router;
}
