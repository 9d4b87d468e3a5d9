// POST /assignments/:id/submissions: a student's upload. The ltik must come in the query or the Authorization
// header (not in the form body), so that the session is known before a byte of the file is read.
import { Router, type Response } from 'express';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { PostgresLtiStorage } from '../lti/storage.js';
import { SubmitRefused, submitPaper, type SubmitDeps } from '../submissions/submit.js';
import { assignmentFor } from './assignment-access.js';
import { assignmentPath } from './launch.js';
import { render } from './views.js';
import { requireSession, sessionOf } from './session.js';

function answer(res: Response, status: number, body: object): void {
  // After a refused upload the rest of the body is not read; closing the connection drops it.
  if (status >= 400) res.setHeader('Connection', 'close');
  res.status(status).json(body);
}

export function submissionRoutes(deps: SubmitDeps & { db: Kysely<DatabaseSchema>; storage: PostgresLtiStorage; encryptionKey: string }): Router {
  const router = Router();
  router.post('/assignments/:id/submissions', requireSession(deps), async (req, res) => {
    const session = sessionOf(res);
    const assignment = await assignmentFor(deps.db, session, req.params.id);
    if (assignment === 404) return answer(res, 404, { error: 'There is no such assignment.' });
    if (assignment === 403) return answer(res, 403, { error: 'This assignment belongs to another course.' });
    if (session.launch.audience !== 'learner') return answer(res, 403, { error: 'Only students of the course submit papers here.' });
    // A plain form post (no script in the page) gets pages back; the page's script asks for JSON.
    const wantsPage = req.accepts(['json', 'html']) === 'html';
    try {
      const result = await submitPaper(deps, assignment, session.userId, req);
      if (wantsPage) return res.redirect(303, assignmentPath(assignment.id, session.ltik));
      answer(res, result.duplicate ? 200 : 201, { ...result.receipt, duplicate: result.duplicate });
    } catch (error) {
      if (!(error instanceof SubmitRefused)) throw error;
      if (wantsPage) {
        res.setHeader('Connection', 'close');
        return void res.status(error.status).send(render('message', { title: 'Not submitted', message: error.message, tone: 'error' }));
      }
      answer(res, error.status, { error: error.message });
    }
  });
  return router;
}
