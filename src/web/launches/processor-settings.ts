// The Asset Processor's settings launch (lti/messages/processor-settings.ts): an instructor chose "Modify" on the
// tool in the LMS assignment's editor, and lands on the check settings of its processor on that assignment, the same
// form as the tool's own assignments (assetprocessor/settings-launch.ts finds it).
import { rememberReportAddress } from '../../assetprocessor/report-address.js';
import { attachOnSettingsLaunch } from '../../assetprocessor/moodle.js';
import { lmsOf } from '../../lti/product-family.js';
import { processorAssignmentFor } from '../../assetprocessor/settings-launch.js';
import { rememberLanguage } from '../../assignments/language.js';
import type { PROCESSOR_SETTINGS_MESSAGE } from '../../lti/messages/index.js';
import { pageAddress } from '../page-address.js';
import { sendMessage, wordsOf } from '../views.js';
import type { LaunchAnswer } from './answer.js';

export const processorSettingsLaunch: LaunchAnswer<typeof PROCESSOR_SETTINGS_MESSAGE> = {
  kind: 'processor-settings',
  async answer(tool, res, started) {
    const { launch, ltik } = started;
    const { t } = wordsOf(res);
    if (launch.audience !== 'instructor')
      return sendMessage(res, 403, t('apLaunch.notForRoleTitle'), t('apLaunch.settingsInstructorsOnly'));
    if (started.courseId === null) return sendMessage(res, 400, t('apLaunch.couldNotOpen'), t('apLaunch.noCourse'));
    const request = {
      platformId: started.platformId,
      courseId: started.courseId,
      activityId: launch.message.activityId,
      custom: launch.message.custom,
    };
    // Moodle's assignment is attached by switching the check on in its own form: opening the settings from there
    // attaches the tool as a first notice would (assetprocessor/moodle.ts).
    const assignmentId =
      (await processorAssignmentFor(tool.db, request)) ??
      (lmsOf(launch.productFamily) === 'moodle'
        ? await attachOnSettingsLaunch(tool.db, tool.jobs, {
            ...request,
            activity: { id: request.activityId, title: launch.message.activityTitle },
          })
        : null);
    if (!assignmentId) return sendMessage(res, 404, t('apLaunch.notAttachedTitle'), t('apLaunch.notAttached'));
    // The reports beside the LMS's files speak the language of the instructor who last set the check up.
    await rememberLanguage(tool.db, { id: assignmentId, lmsLanguage: null }, launch);
    // To send the reports that waited for an address this launch now names (report-address.ts).
    await rememberReportAddress(tool.db, tool.jobs, assignmentId, launch.message.reportAddress);
    res.redirect(303, pageAddress(`/assignments/${assignmentId}/settings`, ltik));
  },
};
