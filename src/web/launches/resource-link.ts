// A resource-link launch (lti/messages/resource-link.ts): a person opens the tool from a link in their course. It
// lands on the assignment the link stands for, created on its first launch (assignments/placement.ts), in the one
// redirect after the launch's POST: an instructor on its dashboard, a student on its page.
import { placeLaunch } from '../../assignments/placement.js';
import { statedDueDates } from '../../lti/due-date.js';
import type { RESOURCE_LINK_MESSAGE } from '../../lti/messages/index.js';
import { followStatedDueDate } from '../../submissions/due-dates.js';
import { sendMessage, wordsOf } from '../views.js';
import type { LaunchAnswer } from './answer.js';
import { landingPath } from './landing.js';

export const resourceLinkLaunch: LaunchAnswer<typeof RESOURCE_LINK_MESSAGE> = {
  kind: 'resource-link',
  async answer(tool, res, started) {
    const { launch, ltik } = started;
    const { t } = wordsOf(res);
    if (launch.audience === 'none') return sendMessage(res, 403, t('refused.notForYourRole'), t('launch.roleNoAccess'));
    if (!launch.context || !launch.resourceLink || !started.courseId)
      return sendMessage(res, 400, t('launch.fromAssignmentTitle'), t('launch.fromAssignment'));
    const placement = await placeLaunch(tool.db, launch, { ...started, courseId: started.courseId });
    if (placement.created)
      tool.logger.info(
        { assignmentId: placement.assignment.id, audience: launch.audience },
        'Assignment created on its first launch',
      );
    // A due date the LMS states (an extension, a date moved in the LMS) judges the papers it covers again.
    const stated = statedDueDates(launch.custom);
    if (placement.assignment.kind === 'gradebook') {
      const moved = await followStatedDueDate(tool.db, {
        assignmentId: placement.assignment.id,
        userId: started.userId,
        audience: launch.audience,
        ...stated,
      });
      if (moved === 'moved')
        tool.logger.info(
          { assignmentId: placement.assignment.id, audience: launch.audience },
          'Due date moved by a launch; papers judged again',
        );
    }
    res.redirect(303, landingPath(placement.assignment.id, launch.audience, ltik));
  },
};
