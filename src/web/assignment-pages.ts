// The assignment as its people see it: instructors get the instructor side, students the student side, anyone
// else (or anyone from another course or platform) nothing.
import { type Router, type Response } from 'express';
import { assignmentFor } from '../assignments/access.js';
import { dashboardPath } from './instructor-pages.js';
import { requireSession, sessionOf } from './require-session.js';
import { studentPage } from './student-pages.js';
import { sendMessage, wordsOf } from './views.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

function refuse(res: Response, status: 403 | 404): void {
  const { t } = wordsOf(res);
  if (status === 404) sendMessage(res, status, t('refused.notFound'), t('refused.noSuchAssignment'));
  else sendMessage(res, status, t('refused.notAvailable'), t('refused.otherCourseAssignment'));
}

export function assignmentPages(tool: Tool): Router {
  const router = toolRouter();
  // The student's side shows their attempts: they are read with the session and the assignment, in one round trip.
  router.get('/assignments/:id', requireSession(tool), async (req, res) => {
    const session = sessionOf(res);
    const assignment = await assignmentFor(tool.db, session, req.params.id);
    if (typeof assignment === 'number') return refuse(res, assignment);
    if (session.launch.audience === 'instructor') {
      res.redirect(303, dashboardPath(assignment.id, session.ltik));
    } else if (session.launch.audience === 'learner') {
      res.send(await studentPage(tool, session, assignment, wordsOf(res)));
    } else {
      const { t } = wordsOf(res);
      sendMessage(res, 403, t('refused.notForYourRole'), t('refused.roleNoAccess'));
    }
  });
  return router;
}
