// Where a verified submission review launch lands (lti/submission-review.ts): an instructor on the named student's
// submissions of the assignment the resource link opens, or on its dashboard when the launch names nobody (Moodle's
// grader report column), a learner on their own assignment page, anyone else on a refusal. The assignment is found as an ordinary launch finds it, within the launch's platform and course.
import type { Response } from 'express';
import type { Kysely } from 'kysely';
import { placedAssignment } from '../assignments/placement.js';
import type { DatabaseSchema } from '../db/index.js';
import type { StartedSession } from '../lti/launch-session.js';
import { SUBMISSION_REVIEW_URIS, reviewerOf, submissionReviewClaims } from '../lti/submission-review.js';
import type { Logger } from '../logger.js';
import { courseStudent } from '../submissions/read-models.js';
import { assignmentPath } from './launch-handlers.js';
import { dashboardPath, studentSubmissionsPath } from './instructor-pages.js';
import { sendMessage, wordsOf } from './views.js';

export async function answerSubmissionReview(
  deps: { db: Kysely<DatabaseSchema>; logger: Logger },
  res: Response,
  own: Record<string, unknown>,
  recorded: StartedSession,
): Promise<void> {
  const { launch, ltik } = recorded;
  const { t } = wordsOf(res, launch.locale);
  const claims = submissionReviewClaims.parse(own);
  const named = claims[SUBMISSION_REVIEW_URIS.forUser];
  // Who may see it is decided before anything is looked up, so a refusal tells nothing of the assignment.
  const reviewer = reviewerOf(launch, named?.user_id);
  if (reviewer === 'refused') {
    deps.logger.warn(
      {
        audience: launch.audience,
        reason:
          launch.audience === 'learner' ? "a learner asked for another user's submission" : 'no role that may review',
      },
      'Submission review refused',
    );
    return sendMessage(res, 403, t('reviewLaunch.notYoursTitle'), t('reviewLaunch.notYours'));
  }
  if (recorded.courseId === null) return sendMessage(res, 400, t('apLaunch.couldNotOpen'), t('reviewLaunch.noCourse'));
  const key = {
    platformId: recorded.platformId,
    courseId: recorded.courseId,
    resourceLinkId: claims[SUBMISSION_REVIEW_URIS.resourceLink].id,
  };
  const assignment = await placedAssignment(deps.db, key, launch.custom);
  if (!assignment)
    return sendMessage(res, 404, t('reviewLaunch.noAssignmentTitle'), t('reviewLaunch.noAssignment'), 'info');
  if (reviewer === 'self') return void res.redirect(303, assignmentPath(assignment.id, ltik));
  if (reviewer === 'class' || !named) return void res.redirect(303, dashboardPath(assignment.id, ltik));
  const student = await courseStudent(deps.db, assignment, { subject: named.user_id });
  // A student the tool has never seen in this course has no submissions here: the page says so under the name the
  // LMS gave, and tells nothing the tool knows of them from another course (Moodle launches any user id a teacher
  // puts in view.php?action=gradeReport&user=).
  if (!student) {
    const name =
      named.name ?? ([named.given_name, named.family_name].filter(Boolean).join(' ') || named.email || named.user_id);
    return sendMessage(res, 404, t('review.title', { name }), t('review.none', { name }), 'info');
  }
  res.redirect(303, studentSubmissionsPath(assignment.id, student.id, ltik));
}
