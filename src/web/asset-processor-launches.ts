// The tool's own launches at the launch address, before ltijs (which refuses their message types): the Asset
// Processor's report review, the processor's settings and the EULA (when ASSET_PROCESSOR is on), and submission
// review (always), each verified and recorded by lti/asset-processor-messages.ts, then sent to the page it opens
// with an ordinary page session (its ltik). Also the EULA page's acceptance.
import express, { type Router, type Response } from 'express';
import type { PlatformLookup } from '../lti/platform.js';
import { z } from 'zod';
import { acceptTerms, type EulaTerms } from '../assetprocessor/eula.js';
import { reportReviewClaims, reviewReport } from '../assetprocessor/report-review.js';
import { processorAssignmentFor, settingsLaunchClaims } from '../assetprocessor/settings-launch.js';
import { rememberReportAddress } from '../assetprocessor/report-address.js';
import type { Jobs } from '../jobs/index.js';
import { ASSET_PROCESSOR_MESSAGES, EULA_MESSAGE } from '../lti/asset-processor.js';
import {
  MessageLaunchRefused,
  claimedOwnMessageType,
  ownClaimsOf,
  recordMessageLaunch,
  verifyMessageLaunch,
  type MessageSessionDeps,
  type RecordedMessageLaunch,
  type VerifiedMessage,
} from '../lti/asset-processor-messages.js';
import { EulaServiceRefused, eulaServiceClaim } from '../lti/eula-service.js';
import { LaunchRefused, LaunchShapeError } from '../lti/launch.js';
import { currentLaunch } from '../lti/launch-scope.js';
import { LTI_ROUTES } from '../lti/provider.js';
import { SUBMISSION_REVIEW_MESSAGE, submissionReviewClaims } from '../lti/submission-review.js';
import type { Logger } from '../logger.js';
import { requireSession, sessionOf } from './require-session.js';
import { frameForSession } from './framing.js';
import { answerSubmissionReview } from './submission-review-launch.js';
import { render, sendMessage, wordsOf } from './views.js';
import { CLAIM, reportAddressOf } from '../lti/claims.js';
import { toolRouter } from './routing.js';

export interface AssetProcessorLaunchDeps extends MessageSessionDeps {
  logger: Logger;
  /** To send the reports that waited for an address a launch now names (report-address.ts); absent: not kept. */
  jobs?: Jobs;
  /** ASSET_PROCESSOR=on: the Asset Processor's launches are taken; off, ltijs refuses them as any unknown message. */
  assetProcessor: boolean;
  /** The tool's terms (ASSET_PROCESSOR_EULA=on); null: it has none and refuses the EULA launch. */
  eula: EulaTerms | null;
}

/** What each message's launch reads of its own claims before anything is written; null: they are missing. */
function ownClaims(verified: VerifiedMessage): Record<string, unknown> | null {
  const schemas = {
    [ASSET_PROCESSOR_MESSAGES.reportReview]: reportReviewClaims,
    [ASSET_PROCESSOR_MESSAGES.settings]: settingsLaunchClaims,
    [EULA_MESSAGE]: z.object({ [CLAIM.eulaService]: eulaServiceClaim }),
    [SUBMISSION_REVIEW_MESSAGE]: submissionReviewClaims,
  };
  const parsed = schemas[verified.messageType].safeParse(verified.claims);
  return parsed.success ? parsed.data : null;
}

/** The terms with Accept; once accepted, a page that asks the LMS to close it. A refusal by the LMS is a 502. */
function eulaPage(
  res: Response,
  terms: EulaTerms | null,
  view: { ltik: string; accepted: boolean; error: string | null },
): void {
  res.status(view.error ? 502 : 200).send(render('asset-processor-eula', { terms, ...view }, wordsOf(res)));
}

export function assetProcessorLaunchRoutes(deps: AssetProcessorLaunchDeps): Router {
  const { logger } = deps;
  const router = toolRouter();

  async function answer(
    res: Response,
    verified: VerifiedMessage,
    own: Record<string, unknown>,
    recorded: RecordedMessageLaunch,
  ): Promise<void> {
    const { launch, ltik } = recorded;
    if (verified.messageType === SUBMISSION_REVIEW_MESSAGE) return answerSubmissionReview(deps, res, own, recorded);
    const { t } = wordsOf(res, launch.locale);
    const withLtik = (path: string) => `${path}?ltik=${encodeURIComponent(ltik)}`;
    if (verified.messageType === ASSET_PROCESSOR_MESSAGES.reportReview) {
      const claims = reportReviewClaims.parse(own);
      const outcome = await reviewReport(deps.db, {
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
    if (verified.messageType === ASSET_PROCESSOR_MESSAGES.settings) {
      if (launch.audience !== 'instructor')
        return sendMessage(res, 403, t('apLaunch.notForRoleTitle'), t('apLaunch.settingsInstructorsOnly'));
      if (recorded.courseId === null) return sendMessage(res, 400, t('apLaunch.couldNotOpen'), t('apLaunch.noCourse'));
      const claims = settingsLaunchClaims.parse(own);
      const assignmentId = await processorAssignmentFor(deps.db, {
        platformId: recorded.platformId,
        courseId: recorded.courseId,
        activityId: claims[CLAIM.activity].id,
        custom: claims[CLAIM.custom] ?? {},
      });
      if (!assignmentId) return sendMessage(res, 404, t('apLaunch.notAttachedTitle'), t('apLaunch.notAttached'));
      if (deps.jobs) await rememberReportAddress(deps.db, deps.jobs, assignmentId, reportAddressOf(verified.claims));
      return void res.redirect(303, withLtik(`/assignments/${assignmentId}/settings`));
    }
    eulaPage(res, deps.eula, { ltik, accepted: false, error: null });
  }

  router.post(LTI_ROUTES.launch, async (req, res, next) => {
    const { t } = wordsOf(res);
    const idToken = (req.body as { id_token?: unknown } | undefined)?.id_token;
    // Only a launch the guard let through (it found the state and the key) and of these message types is ours.
    const messageType = typeof idToken === 'string' && currentLaunch() ? claimedOwnMessageType(idToken) : null;
    if (!messageType || typeof idToken !== 'string') return next();
    if (messageType !== SUBMISSION_REVIEW_MESSAGE && !deps.assetProcessor) return next();
    try {
      if (messageType === EULA_MESSAGE && !deps.eula) {
        logger.warn({ reason: 'EULA launch, the tool has no terms' }, 'LTI launch refused');
        return sendMessage(res, 404, t('apLaunch.couldNotOpen'), t('apLaunch.noTerms'));
      }
      const verified = await verifyMessageLaunch(deps.db, idToken);
      const own = ownClaims(verified);
      if (!own) {
        logger.warn({ messageType, reason: 'its own claims are missing' }, 'LTI launch refused');
        return sendMessage(res, 400, t('apLaunch.couldNotOpen'), t('apLaunch.missing'));
      }
      const recorded = await recordMessageLaunch(deps, verified, req.path, own);
      await frameForSession(deps, res, { platformId: recorded.platformId, launch: recorded.launch });
      await answer(res, verified, own, recorded);
    } catch (error) {
      if (error instanceof MessageLaunchRefused) {
        logger.warn({ messageType, reason: error.detail }, 'LTI launch refused');
        return sendMessage(res, error.status, t('apLaunch.couldNotOpen'), error.message);
      }
      if (error instanceof LaunchRefused) {
        logger.warn({ messageType, reason: error.reason }, 'LTI launch refused');
        return sendMessage(res, 401, t('apLaunch.couldNotOpen'), error.sentence);
      }
      if (error instanceof LaunchShapeError) {
        logger.warn({ messageType, reason: error.message }, 'LTI launch refused');
        return sendMessage(res, 400, t('apLaunch.couldNotOpen'), t('apLaunch.missing'));
      }
      next(error);
    }
  });
  return router;
}

/** The EULA page's Accept: told to the LMS's EULA service, then kept by the tool (assetprocessor/eula.ts). */
export function assetProcessorEulaRoutes(deps: AssetProcessorLaunchDeps & { provider: PlatformLookup }): Router {
  const router = toolRouter();
  const form = express.urlencoded({ extended: false, limit: '8kb' });

  router.post('/asset-processor/eula', form, requireSession(deps), async (_req, res) => {
    const { t } = wordsOf(res);
    const session = sessionOf(res);
    const service = z.object({ [CLAIM.eulaService]: eulaServiceClaim }).safeParse(ownClaimsOf(session.idToken));
    if (!deps.eula || session.launch.messageType !== EULA_MESSAGE || !service.success) {
      return sendMessage(res, 403, t('apLaunch.notAvailableTitle'), t('apLaunch.termsFromLms'));
    }
    const platform = await deps.provider.getPlatform(session.launch.issuer, session.launch.clientId);
    if (!platform || Array.isArray(platform))
      return sendMessage(res, 403, t('apLaunch.notAvailableTitle'), t('apLaunch.lmsGone'));
    try {
      await acceptTerms({ db: deps.db, platform }, service.data[CLAIM.eulaService].url, {
        platformId: session.platformId,
        deploymentId: session.launch.deploymentId,
        lmsUserId: session.launch.subject,
      });
    } catch (error) {
      if (!(error instanceof EulaServiceRefused)) throw error;
      deps.logger.warn({ reason: error.detail }, 'EULA acceptance not taken by the LMS');
      return eulaPage(res, deps.eula, { ltik: session.ltik, accepted: false, error: error.message });
    }
    eulaPage(res, deps.eula, { ltik: session.ltik, accepted: true, error: null });
  });
  return router;
}
