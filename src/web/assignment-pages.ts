// The assignment as its people see it: instructors get the instructor side, students the student side, anyone
// else (or anyone from another course or platform) nothing.
import { Router, type Response } from 'express';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { getAssignment, type Assignment } from '../assignments/store.js';
import type { DatabaseSchema } from '../db/index.js';
import type { Session } from '../lti/session.js';
import type { PostgresLtiStorage } from '../lti/storage.js';
import { requireSession, sessionOf } from './session.js';
import { render } from './views.js';

const assignmentId = z.string().uuid();

function refuse(res: Response, status: 403 | 404): void {
  const message = status === 404 ? 'There is no such assignment.' : 'This assignment belongs to another course. Open it from its own course.';
  res.status(status).send(render('message', { title: status === 404 ? 'Not found' : 'Not available', message, tone: 'error' }));
}

/** The assignment, if the session's platform and course are its own. */
export async function assignmentFor(db: Kysely<DatabaseSchema>, session: Session, id: unknown): Promise<Assignment | 403 | 404> {
  const parsed = assignmentId.safeParse(id);
  if (!parsed.success) return 404;
  const assignment = await getAssignment(db, parsed.data);
  if (!assignment) return 404;
  if (assignment.platformId !== session.platformId || assignment.courseId !== session.courseId) return 403;
  return assignment;
}

export function assignmentPages(deps: { db: Kysely<DatabaseSchema>; storage: PostgresLtiStorage; encryptionKey: string }): Router {
  const router = Router();
  router.get('/assignments/:id', requireSession(deps), async (req, res) => {
    const session = sessionOf(res);
    const assignment = await assignmentFor(deps.db, session, req.params.id);
    if (typeof assignment === 'number') return refuse(res, assignment);
    const common = { assignment, ltik: session.ltik, userName: session.launch.name ?? 'you', courseTitle: session.launch.context?.title ?? '' };
    if (session.launch.audience === 'instructor') {
      res.send(render('assignment-instructor', common));
    } else if (session.launch.audience === 'learner') {
      res.send(render('assignment-student', common));
    } else {
      res.status(403).send(render('message', { title: 'Not available for your role', message: 'Your role in this course does not give access to this assignment.', tone: 'error' }));
    }
  });
  return router;
}
