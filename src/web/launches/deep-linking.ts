// A deep-linking launch (lti/messages/deep-linking.ts): an instructor adds the tool to their course. They get the
// assignment picker (web/deep-linking.ts takes its answer), or, when the LMS asks for an Asset Processor and the tool
// offers one (ASSET_PROCESSOR=on), the page that attaches it to the LMS's own assignment (asset-processor-attach.ts).
import type { DEEP_LINKING_MESSAGE } from '../../lti/messages/index.js';
import { assetProcessorAttachPage, wantsAssetProcessor } from '../asset-processor-attach.js';
import { render, sendMessage, wordsOf } from '../views.js';
import type { LaunchAnswer } from './answer.js';

export const deepLinkingLaunch: LaunchAnswer<typeof DEEP_LINKING_MESSAGE> = {
  kind: 'deep-linking',
  async answer(tool, res, { launch, ltik }) {
    const words = wordsOf(res);
    const { t } = words;
    if (launch.audience === 'none') return sendMessage(res, 403, t('refused.notForYourRole'), t('launch.roleNoAccess'));
    if (launch.audience !== 'instructor')
      return sendMessage(res, 403, t('refused.notForYourRole'), t('launch.instructorsAdd'));
    if (tool.settings.assetProcessor && wantsAssetProcessor(launch))
      return void res.send(assetProcessorAttachPage({ ltik, launch }, words));
    res.send(
      render(
        'deep-link',
        {
          ltik,
          title: launch.resourceLink?.title ?? t('deepLink.defaultTitle'),
          courseTitle: launch.context?.title ?? '',
        },
        words,
      ),
    );
  },
};
