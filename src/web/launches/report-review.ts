// A report review launch (lti/messages/report-review.ts): someone clicked "View report" beside a file the LMS sent
// the tool. The report opens when the viewer may see it (assetprocessor/report-review.ts decides); otherwise the page
// says why, or that the file is still being checked, or why it could not be.
import { reviewReport } from '../../assetprocessor/report-review.js';
import type { REPORT_REVIEW_MESSAGE } from '../../lti/messages/index.js';
import { pageAddress } from '../page-address.js';
import { sendMessage, wordsOf } from '../views.js';
import type { LaunchAnswer } from './answer.js';

export const reportReviewLaunch: LaunchAnswer<typeof REPORT_REVIEW_MESSAGE> = {
  kind: 'report-review',
  async answer(tool, res, started) {
    const { launch, ltik } = started;
    const words = wordsOf(res);
    const { t } = words;
    const outcome = await reviewReport(tool.db, {
      platformId: started.platformId,
      courseId: started.courseId,
      activityId: launch.message.activityId,
      lmsSubmissionId: launch.message.lmsSubmissionId,
      assetId: launch.message.assetId,
      reportType: launch.message.reportType,
      viewer: { subject: launch.subject, userId: started.userId, audience: launch.audience },
    });
    if (outcome.kind === 'open')
      return void res.redirect(303, pageAddress(`/reports/${outcome.submissionId}/${outcome.reportKind}/view`, ltik));
    if (outcome.kind === 'refused')
      return sendMessage(res, outcome.status, t('apLaunch.reportUnavailable'), words.say(outcome.sentence));
    if (outcome.kind === 'checking')
      return sendMessage(
        res,
        200,
        t('apLaunch.checkingTitle'),
        t('apLaunch.checking', { state: outcome.state }),
        'info',
      );
    sendMessage(res, 200, t('apLaunch.failedTitle'), outcome.comment);
  },
};
