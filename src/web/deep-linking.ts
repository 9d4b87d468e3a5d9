// Deep linking (LTI Deep Linking 2.0): the instructor adds "a similarity-checked assignment"; the tool creates
// it and answers the platform with an ltiResourceLink whose line item is the similarity column
// (scoreMaximum 100, tag "similarity", resourceId = the assignment id, and a submissionReview so that the LMS's
// gradebook can open a student's submissions in the tool), signed by ltijs.
import express, { type Router } from 'express';
import { z } from 'zod';
import { ASSIGNMENT_PARAMETER } from '../assignments/placement.js';
import { createAssignment } from '../assignments/store.js';
import { SIMILARITY_TAG } from '../grades/ags.js';
import { isLaunchOf } from '../lti/launch.js';
import { DEEP_LINKING_MESSAGE } from '../lti/messages/index.js';
import { submissionReviewOfLineItem } from '../lti/messages/submission-review.js';
import { render, sendMessage, wordsOf } from './views.js';
import { requireSession, sessionOf } from './require-session.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

const choice = z.object({ title: z.string().trim().min(1).max(200) });

export function deepLinkingRoutes(tool: Tool): Router {
  const router = toolRouter();
  router.post(
    '/deep-linking',
    express.urlencoded({ extended: false, limit: '16kb' }),
    requireSession(tool),
    async (req, res) => {
      const session = sessionOf(res);
      const { launch } = session;
      const words = wordsOf(res);
      const { t } = words;
      if (!isLaunchOf(launch, DEEP_LINKING_MESSAGE) || launch.audience !== 'instructor' || !session.courseId) {
        sendMessage(res, 403, t('refused.notAvailable'), t('deepLink.instructorsOnly'));
        return;
      }
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
