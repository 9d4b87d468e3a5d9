// Deep linking (LTI Deep Linking 2.0): the instructor adds "a similarity-checked assignment"; the tool creates
// it and answers the platform with an ltiResourceLink whose line item is the similarity column
// (scoreMaximum 100, tag "similarity", resourceId = the assignment id, and a submissionReview so that the LMS's
// gradebook can open a student's submissions in the tool), signed by ltijs.
import express, { type Response, type Router } from 'express';
import { z } from 'zod';
import { ASSIGNMENT_PARAMETER } from '../assignments/placement.js';
import { createAssignment } from '../assignments/store.js';
import { SIMILARITY_TAG } from '../grades/ags.js';
import { isLaunchOf, type LaunchOf } from '../lti/launch.js';
import { DEEP_LINKING_MESSAGE } from '../lti/messages/index.js';
import { submissionReviewOfLineItem } from '../lti/messages/submission-review.js';
import type { Session } from '../lti/session.js';
import { render, sendMessage, wordsOf } from './views.js';
import { requireSession, sessionOf } from './require-session.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

const choice = z.object({ title: z.string().trim().min(1).max(200) });

/** A session of an instructor's deep-linking launch in a course: who may add the tool there. */
export type DeepLinkingSession = Session & { launch: LaunchOf<typeof DEEP_LINKING_MESSAGE>; courseId: string };

/**
 * The page's session when it is an instructor's deep-linking launch in a course, else null with the 403 answered:
 * only an instructor adds the tool to a course, as an assignment (this page) or an Asset Processor
 * (asset-processor-attach.ts).
 */
export function deepLinkingInstructor(res: Response): DeepLinkingSession | null {
  const session = sessionOf(res);
  const { launch, courseId } = session;
  if (isLaunchOf(launch, DEEP_LINKING_MESSAGE) && launch.audience === 'instructor' && courseId)
    return { ...session, launch, courseId };
  const { t } = wordsOf(res);
  sendMessage(res, 403, t('refused.notAvailable'), t('deepLink.instructorsOnly'));
  return null;
}

export function deepLinkingRoutes(tool: Tool): Router {
  const router = toolRouter();
  router.post(
    '/deep-linking',
    express.urlencoded({ extended: false, limit: '16kb' }),
    requireSession(tool),
    async (req, res) => {
      const session = deepLinkingInstructor(res);
      if (!session) return;
      const { launch } = session;
      const words = wordsOf(res);
      const { t } = words;
      if (!launch.message.acceptTypes.includes('ltiResourceLink')) {
        sendMessage(res, 400, t('deepLink.notHereTitle'), t('deepLink.notHere'));
        return;
      }
      const input = choice.safeParse(req.body);
      if (!input.success) {
        res.status(400).send(
          render(
            'deep-link',
            {
              ltik: session.ltik,
              title: String(req.body?.title ?? ''),
              error: t(input.error.issues[0]!.code === 'too_big' ? 'deepLink.titleTooLong' : 'deepLink.titleMissing'),
              courseTitle: session.launch.context?.title ?? '',
            },
            words,
          ),
        );
        return;
      }
      const assignment = await createAssignment(tool.db, {
        platformId: session.platformId,
        courseId: session.courseId,
        resourceLinkId: null,
        title: input.data.title,
        createdBy: session.userId,
        lineItemsUrl: session.launch.lineItemsUrl,
        membershipsUrl: session.launch.membershipsUrl,
      });
      const jwt = await tool.signDeepLinking(
        launch,
        [
          {
            type: 'ltiResourceLink',
            title: assignment.title,
            url: tool.urls.launch,
            custom: { [ASSIGNMENT_PARAMETER]: assignment.id },
            lineItem: {
              scoreMaximum: 100,
              label: assignment.title,
              resourceId: assignment.id,
              tag: SIMILARITY_TAG,
              submissionReview: submissionReviewOfLineItem({ [ASSIGNMENT_PARAMETER]: assignment.id }, tool.urls.launch),
            },
          },
        ],
        { message: t('deepLink.added', { title: assignment.title }) },
      );
      res.send(
        render('deep-link-return', { returnUrl: launch.message.returnUrl, jwt, title: assignment.title }, words),
      );
    },
  );
  return router;
}
