// Where the Asset Processor's launches land once verified (lti/verify-launch.ts) and their session started
// (launch-route.ts): report review, the processor's settings and the EULA (when ASSET_PROCESSOR is on), and
// submission review (always), each sent to the page it opens with an ordinary page session (its ltik). Also the EULA
// page's acceptance.
import express, { type Router, type Response } from 'express';
import type { ZodType } from 'zod';
import { acceptTerms, type EulaTerms } from '../assetprocessor/eula.js';
import { reportReviewClaims, reviewReport } from '../assetprocessor/report-review.js';
import { processorAssignmentFor, settingsLaunchClaims } from '../assetprocessor/settings-launch.js';
import { rememberReportAddress } from '../assetprocessor/report-address.js';
import { ASSET_PROCESSOR_MESSAGES, EULA_MESSAGE } from '../lti/asset-processor.js';
import { ownClaimsOf, type StartedSession } from '../lti/launch-session.js';
import type { LaunchMessageType, VerifiedLaunch } from '../lti/verify-launch.js';
import { EulaServiceRefused, eulaLaunchClaims } from '../lti/eula-service.js';
import { SUBMISSION_REVIEW_MESSAGE } from '../lti/submission-review.js';
import { requireSession, sessionOf } from './require-session.js';
import { answerSubmissionReview } from './submission-review-launch.js';
import { render, sendMessage, wordsOf } from './views.js';
import { CLAIM, reportAddressOf } from '../lti/claims.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

/** The message types answered here. */
export type OwnMessageType = Exclude<LaunchMessageType, 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest'>;

/** The claims of the Asset Processor's own launches, which this part reads (the verifier reads the others'). */
const ASSET_PROCESSOR_CLAIMS: Partial<Record<OwnMessageType, ZodType>> = {
  [ASSET_PROCESSOR_MESSAGES.reportReview]: reportReviewClaims,
  [ASSET_PROCESSOR_MESSAGES.settings]: settingsLaunchClaims,
};

/**
 * What each message's launch reads of its own claims, kept with its session; null: they are missing. Submission
 * review's and the EULA's were read by the verifier already (lti/verify-launch.ts); the report review's and the
 * settings' are the Asset Processor's to read.
 */
export function ownClaims(verified: VerifiedLaunch & { messageType: OwnMessageType }): Record<string, unknown> | null {
  if (verified.particular) return verified.particular;
  const parsed = ASSET_PROCESSOR_CLAIMS[verified.messageType]?.safeParse(verified.claims);
  return parsed?.success ? (parsed.data as Record<string, unknown>) : null;
}

/** The terms with Accept; once accepted, a page that asks the LMS to close it. A refusal by the LMS is a 502. */
function eulaPage(
  res: Response,
  terms: EulaTerms | null,
  view: { ltik: string; accepted: boolean; error: string | null },
): void {
  res.status(view.error ? 502 : 200).send(render('asset-processor-eula', { terms, ...view }, wordsOf(res)));
}

/** The page a verified launch of one of these messages opens, its session started with its own claims. */
export async function answerOwnLaunch(
  tool: Tool,
  res: Response,
  verified: VerifiedLaunch & { messageType: OwnMessageType },
  own: Record<string, unknown>,
  recorded: StartedSession,
): Promise<void> {
  const { launch, ltik } = recorded;
  const { messageType } = verified;
  if (messageType === SUBMISSION_REVIEW_MESSAGE) return answerSubmissionReview(tool, res, own, recorded);
  const { t } = wordsOf(res, launch.locale);
  const withLtik = (path: string) => `${path}?ltik=${encodeURIComponent(ltik)}`;
  if (messageType === ASSET_PROCESSOR_MESSAGES.reportReview) {
    const claims = reportReviewClaims.parse(own);
    const outcome = await reviewReport(tool.db, {
      platformId: recorded.platformId,
      courseId: recorded.courseId,
      activityId: claims[CLAIM.activity].id,
      lmsSubmissionId: claims[CLAIM.submission].id,
      assetId: claims[CLAIM.asset].id,
      reportType: claims[CLAIM.assetReportType],
      viewer: { subject: launch.subject, userId: recorded.userId, audience: launch.audience },
    });
    if (outcome.kind === 'open')
      return void res.redirect(303, withLtik(`/reports/${outcome.submissionId}/${outcome.reportKind}/view`));
    if (outcome.kind === 'refused')
      return sendMessage(
        res,
        outcome.status,
        t('apLaunch.reportUnavailable'),
        wordsOf(res, launch.locale).say(outcome.sentence),
      );
    if (outcome.kind === 'checking')
      return sendMessage(
        res,
        200,
        t('apLaunch.checkingTitle'),
        t('apLaunch.checking', { state: outcome.state }),
        'info',
      );
    return sendMessage(res, 200, t('apLaunch.failedTitle'), outcome.comment);
  }
  if (messageType === ASSET_PROCESSOR_MESSAGES.settings) {
    if (launch.audience !== 'instructor')
      return sendMessage(res, 403, t('apLaunch.notForRoleTitle'), t('apLaunch.settingsInstructorsOnly'));
    if (recorded.courseId === null) return sendMessage(res, 400, t('apLaunch.couldNotOpen'), t('apLaunch.noCourse'));
    const claims = settingsLaunchClaims.parse(own);
    const assignmentId = await processorAssignmentFor(tool.db, {
      platformId: recorded.platformId,
      courseId: recorded.courseId,
      activityId: claims[CLAIM.activity].id,
      custom: claims[CLAIM.custom] ?? {},
    });
    if (!assignmentId) return sendMessage(res, 404, t('apLaunch.notAttachedTitle'), t('apLaunch.notAttached'));
    // To send the reports that waited for an address this launch now names (report-address.ts).
    await rememberReportAddress(tool.db, tool.jobs, assignmentId, reportAddressOf(verified.claims));
    return void res.redirect(303, withLtik(`/assignments/${assignmentId}/settings`));
  }
  eulaPage(res, tool.settings.assetProcessorEula, { ltik, accepted: false, error: null });
}

/** The EULA page's Accept: told to the LMS's EULA service, then kept by the tool (assetprocessor/eula.ts). */
export function assetProcessorEulaRoutes(tool: Tool): Router {
  // The tool's terms (ASSET_PROCESSOR_EULA=on); null: it has none and refuses the EULA launch.
  const terms = tool.settings.assetProcessorEula;
  const router = toolRouter();
  const form = express.urlencoded({ extended: false, limit: '8kb' });

  router.post('/asset-processor/eula', form, requireSession(tool), async (_req, res) => {
    const { t } = wordsOf(res);
    const session = sessionOf(res);
    const service = eulaLaunchClaims.safeParse(ownClaimsOf(session.idToken));
    if (!terms || session.launch.messageType !== EULA_MESSAGE || !service.success) {
      return sendMessage(res, 403, t('apLaunch.notAvailableTitle'), t('apLaunch.termsFromLms'));
    }
    const platform = await tool.provider.getPlatform(session.launch.issuer, session.launch.clientId);
    if (!platform || Array.isArray(platform))
      return sendMessage(res, 403, t('apLaunch.notAvailableTitle'), t('apLaunch.lmsGone'));
    try {
      await acceptTerms({ db: tool.db, platform }, service.data[CLAIM.eulaService].url, {
        platformId: session.platformId,
        deploymentId: session.launch.deploymentId,
        lmsUserId: session.launch.subject,
      });
    } catch (error) {
      if (!(error instanceof EulaServiceRefused)) throw error;
      tool.logger.warn({ reason: error.detail }, 'EULA acceptance not taken by the LMS');
      return eulaPage(res, terms, { ltik: session.ltik, accepted: false, error: error.message });
    }
    eulaPage(res, terms, { ltik: session.ltik, accepted: true, error: null });
  });
  return router;
}
