// The assignment as its people see it: instructors get the instructor side, students the student side, anyone
// else (or anyone from another course or platform) nothing.
import { Router, type Response } from 'express';
import { assignmentFor } from '../assignments/access.js';
import { attemptsOf, canSubmit, counted } from '../submissions/store.js';
import { uploadLimits } from '../submissions/upload-limits.js';
import { requireSession, sessionOf, type SessionDeps } from './require-session.js';
import { studentView } from './student-pages.js';
import { render, sendMessage } from './views.js';

function refuse(res: Response, status: 403 | 404): void {
  const message = status === 404 ? 'There is no such assignment. Open it again from your course.' : 'This assignment belongs to another course. Open it from its own course.';
  sendMessage(res, status, status === 404 ? 'Not found' : 'Not available', message);
}

export function assignmentPages(deps: SessionDeps): Router {
  const router = Router();
  router.get('/assignments/:id', requireSession(deps), async (req, res) => {
    const session = sessionOf(res);
    const assignment = await assignmentFor(deps.db, session, req.params.id);
    if (typeof assignment === 'number') return refuse(res, assignment);
    const common = { assignment, ltik: session.ltik, userName: session.launch.name ?? 'you', courseTitle: session.launch.context?.title ?? '' };
    if (session.launch.audience === 'instructor') {
      res.redirect(303, `/assignments/${assignment.id}/dashboard?ltik=${encodeURIComponent(session.ltik)}`);
    } else if (session.launch.audience === 'learner') {
      const attempts = await attemptsOf(deps.db, assignment.id, session.userId);
      const ltik = encodeURIComponent(session.ltik);
      res.send(
        render('assignment-student', {
          ...common,
          attempts: attempts.map((a) => studentView(assignment, a)),
          decision: canSubmit(assignment.settings, counted(attempts), new Date()),
          limits: uploadLimits(assignment.settings),
          uploadUrl: `/assignments/${assignment.id}/submissions?ltik=${ltik}`,
          statusUrl: `/assignments/${assignment.id}/my-submissions?ltik=${ltik}`,
          receiptBase: `/assignments/${assignment.id}/submissions`,
        }),
      );
    } else {
      sendMessage(res, 403, 'Not available for your role', 'Your role in this course does not give access to this assignment. If it should, ask your instructor to check your role in the course.');
    }
  });
  return router;
}
