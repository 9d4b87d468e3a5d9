// A submission review launch (lti/messages/submission-review.ts): an instructor lands on the named student's
// submissions of the assignment the resource link opens, or on its dashboard when the launch names nobody (Moodle's
// grader report column), a learner on their own assignment page, anyone else on a refusal. The assignment is found
// as an ordinary launch finds it, within the launch's platform and course.
import { placedAssignment } from '../../assignments/placement.js';
import { reviewerOf } from '../../lti/messages/submission-review.js';
import type { SUBMISSION_REVIEW_MESSAGE } from '../../lti/messages/index.js';
import { courseStudent } from '../../submissions/read-models.js';
import { dashboardPath, studentSubmissionsPath } from '../instructor-pages.js';
import { sendMessage, wordsOf } from '../views.js';
import type { LaunchAnswer } from './answer.js';
import { assignmentPath } from './landing.js';

export const submissionReviewLaunch: LaunchAnswer<typeof SUBMISSION_REVIEW_MESSAGE> = {
  kind: 'submission-review',
  async answer(tool, res, started) {
    const { launch, ltik } = started;
    const { t } = wordsOf(res);
    const named = launch.message.forUser;
    // Who may see it is decided before anything is looked up, so a refusal tells nothing of the assignment.
    const reviewer = reviewerOf(launch, named?.userId);
    if (reviewer === 'refused') {
      tool.logger.warn(
        {
          audience: launch.audience,
          reason:
            launch.audience === 'learner' ? "a learner asked for another user's submission" : 'no role that may review',
        },
        'Submission review refused',
      );
      return sendMessage(res, 403, t('reviewLaunch.notYoursTitle'), t('reviewLaunch.notYours'));
    }
    if (started.courseId === null) return sendMessage(res, 400, t('apLaunch.couldNotOpen'), t('reviewLaunch.noCourse'));
    const key = {
      platformId: started.platformId,
      courseId: started.courseId,
      resourceLinkId: launch.message.resourceLinkId,
    };
    const assignment = await placedAssignment(tool.db, key, launch.custom);
    if (!assignment)
      return sendMessage(res, 404, t('reviewLaunch.noAssignmentTitle'), t('reviewLaunch.noAssignment'), 'info');
    if (reviewer === 'self') return void res.redirect(303, assignmentPath(assignment.id, ltik));
    if (reviewer === 'class' || !named) return void res.redirect(303, dashboardPath(assignment.id, ltik));
    const student = await courseStudent(tool.db, assignment, { subject: named.userId });
    // A student the tool has never seen in this course has no submissions here: the page says so under the name the
    // LMS gave, and tells nothing the tool knows of them from another course (Moodle launches any user id a teacher
    // puts in view.php?action=gradeReport&user=).
    if (!student) {
      const { name } = named;
      return sendMessage(res, 404, t('review.title', { name }), t('review.none', { name }), 'info');
    }
    res.redirect(303, studentSubmissionsPath(assignment.id, student.id, ltik));
  },
};
