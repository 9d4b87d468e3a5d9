// The Asset Processor's EULA launch (lti/messages/eula.ts): the tool's terms with Accept, when it has terms
// (ASSET_PROCESSOR_EULA); the Accept is told to the LMS's EULA service, then kept by the tool (assetprocessor/eula.ts),
// and the page asks the LMS to close it.
import express, { type Response, type Router } from 'express';
import { acceptTerms, type EulaTerms } from '../../assetprocessor/eula.js';
import { ServiceRefused } from '../../lti/platform-service.js';
import { isLaunchOf } from '../../lti/launch.js';
import { EULA_MESSAGE } from '../../lti/messages/index.js';
import { requireSession, sessionOf } from '../require-session.js';
import { toolRouter } from '../routing.js';
import type { Tool } from '../tool-context.js';
import { render, sendMessage, wordsOf } from '../views.js';
import type { LaunchAnswer } from './answer.js';

/** The terms with Accept; once accepted, a page that asks the LMS to close it. A refusal by the LMS is a 502. */
function eulaPage(
  res: Response,
  terms: EulaTerms | null,
  view: { ltik: string; accepted: boolean; error: string | null },
): void {
  res.status(view.error ? 502 : 200).send(render('asset-processor-eula', { terms, ...view }, wordsOf(res)));
}

export const eulaLaunch: LaunchAnswer<typeof EULA_MESSAGE> = {
  kind: 'eula',
  refused: (tool) =>
    tool.settings.assetProcessorEula
      ? null
      : {
          status: 404,
          title: 'apLaunch.couldNotOpen',
          sentence: 'apLaunch.noTerms',
          reason: 'EULA launch, the tool has no terms',
        },
  async answer(tool, res, { ltik }) {
    eulaPage(res, tool.settings.assetProcessorEula, { ltik, accepted: false, error: null });
  },
};

/** The EULA page's Accept: told to the LMS's EULA service, then kept by the tool (assetprocessor/eula.ts). */
export function eulaAcceptRoutes(tool: Tool): Router {
  // The tool's terms (ASSET_PROCESSOR_EULA=on); null: it has none and refuses the EULA launch.
  const terms = tool.settings.assetProcessorEula;
  const router = toolRouter();
  const form = express.urlencoded({ extended: false, limit: '8kb' });

  router.post('/asset-processor/eula', form, requireSession(tool), async (_req, res) => {
    const { t } = wordsOf(res);
    const session = sessionOf(res);
    const { launch } = session;
    if (!terms || !isLaunchOf(launch, EULA_MESSAGE))
      return sendMessage(res, 403, t('apLaunch.notAvailableTitle'), t('apLaunch.termsFromLms'));
    const platform = await tool.provider.getPlatform(launch.issuer, launch.clientId);
    if (!platform || Array.isArray(platform))
      return sendMessage(res, 403, t('apLaunch.notAvailableTitle'), t('apLaunch.lmsGone'));
    try {
      await acceptTerms({ db: tool.db, platform }, launch.message.serviceUrl, {
        platformId: session.platformId,
        deploymentId: launch.deploymentId,
        lmsUserId: launch.subject,
      });
    } catch (error) {
      if (!(error instanceof ServiceRefused)) throw error;
      tool.logger.warn({ reason: error.detail }, 'EULA acceptance not taken by the LMS');
      return eulaPage(res, terms, { ltik: session.ltik, accepted: false, error: error.message });
    }
    eulaPage(res, terms, { ltik: session.ltik, accepted: true, error: null });
  });
  return router;
}
