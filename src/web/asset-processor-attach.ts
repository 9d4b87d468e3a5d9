// The instructor's page for attaching the tool to the LMS's own assignment (a deep-linking launch that accepts an
// Asset Processor): the usual check settings with their defaults, one click to attach, and the signed answer back
// to the LMS. The rules live in assetprocessor/attach.ts; this file reads the form and renders.
import express, { type Router } from 'express';
import { z } from 'zod';
import { ASSET_PROCESSOR_ITEM, assetProcessorItem, attachProcessor } from '../assetprocessor/attach.js';
import { rememberLanguage } from '../assignments/language.js';
import { DOCUMENT_TYPES, defaultSettings, type AssignmentSettings } from '../assignments/settings.js';
import type { LaunchOf } from '../lti/launch.js';
import { DEEP_LINKING_MESSAGE } from '../lti/messages/index.js';
import { ServiceRefused } from '../lti/platform-service.js';
import { deepLinkingInstructor } from './deep-linking.js';
import { requireSession } from './require-session.js';
import type { Tool } from './tool-context.js';
import { readSettings } from './settings-form.js';
import type { Words } from '../i18n/index.js';
import { render, sendMessage, wordsOf } from './views.js';
import { toolRouter } from './routing.js';

const title = z.string().trim().min(1).max(200);

/** Whether a deep-linking launch asks for an Asset Processor (and so gets this page, not the assignment picker). */
export const wantsAssetProcessor = (launch: LaunchOf<typeof DEEP_LINKING_MESSAGE>) =>
  launch.message.acceptTypes.includes(ASSET_PROCESSOR_ITEM);

export function assetProcessorAttachPage(
  view: {
    ltik: string;
    launch: LaunchOf<typeof DEEP_LINKING_MESSAGE>;
    title?: string;
    settings?: AssignmentSettings;
    error?: string | null;
  },
  words: Words,
): string {
  const activityTitle = view.launch.message.assetProcessor?.activityTitle ?? null;
  return render(
    'asset-processor-attach',
    {
      ltik: view.ltik,
      title: view.title ?? activityTitle ?? words.t('deepLink.defaultTitle'),
      activityTitle,
      settings: view.settings ?? defaultSettings(),
      documentTypes: DOCUMENT_TYPES,
      error: view.error ?? null,
    },
    words,
  );
}

/**
 * The settings this page does not show (the LMS owns submissions and grades): their defaults, as form fields. With
 * the page's inputs they are every field of the settings form, which a rules test holds.
 */
export function fieldsNotShown(): Record<string, unknown> {
  const d = defaultSettings();
  return {
    allowedFileTypes: d.allowedFileTypes,
    maxFileMb: String(d.maxFileMb),
    resubmission: d.resubmission,
    maxAttempts: String(d.maxAttempts),
    earlierAttempts: d.earlierAttempts,
    dueAt: '',
    dueAtZone: 'UTC',
    gradeColumn: d.gradeColumn,
    bandYellow: String(d.similarityBands[0]),
    bandOrange: String(d.similarityBands[1]),
    bandRed: String(d.similarityBands[2]),
    instructions: d.instructions,
  };
}

export function assetProcessorAttachRoutes(tool: Tool): Router {
  const router = toolRouter();
  router.post(
    '/asset-processor/attach',
    express.urlencoded({ extended: false, limit: '32kb' }),
    requireSession(tool),
    async (req, res) => {
      const session = deepLinkingInstructor(res);
      if (!session) return;
      const { launch } = session;
      const words = wordsOf(res);
      const { t } = words;
      if (!wantsAssetProcessor(launch)) {
        sendMessage(res, 400, t('attach.notHereTitle'), t('attach.notHere'));
        return;
      }
      const processor = launch.message.assetProcessor;
      const serviceUrl = processor?.noticeServiceUrl;
      if (!serviceUrl) {
        sendMessage(res, 400, t('attach.cannotTitle'), t('attach.noNoticeService'));
        return;
      }
      const body = (req.body ?? {}) as Record<string, unknown>;
      const named = title.safeParse(body.title);
      const read = readSettings({ ...body, ...fieldsNotShown() }, words);
      if (!named.success || 'error' in read) {
        const error = !named.success
          ? t(named.error.issues[0]!.code === 'too_big' ? 'deepLink.titleTooLong' : 'attach.titleMissing')
          : (read as { error: string }).error;
        const entered = 'entered' in read ? read.entered : undefined;
        res.status(400).send(
          assetProcessorAttachPage(
            {
              ltik: session.ltik,
              launch,
              title: String(body.title ?? ''),
              ...(entered ? { settings: entered } : {}),
              error,
            },
            words,
          ),
        );
        return;
      }
      let assignment;
      try {
        assignment = await attachProcessor(
          { ...tool, publicUrl: tool.settings.publicUrl },
          {
            platform: { id: session.platformId, issuer: launch.issuer, clientId: launch.clientId },
            courseId: session.courseId,
            createdBy: session.userId,
            title: named.data,
            settings: read.settings,
            noticeServiceUrl: serviceUrl,
            activityId: processor?.activityId ?? null,
            reportAddress: processor?.reportAddress ?? null,
          },
        );
      } catch (error) {
        if (!(error instanceof ServiceRefused)) throw error;
        tool.logger.warn({ issuer: launch.issuer, reason: error.detail }, 'Asset Processor not attached');
        res
          .status(502)
          .send(
            assetProcessorAttachPage(
              { ltik: session.ltik, launch, title: named.data, settings: read.settings, error: error.message },
              words,
            ),
          );
        return;
      }
      tool.logger.info({ assignmentId: assignment.id }, 'Asset Processor attached');
      // The reports beside the LMS's files are written in the language of the instructor who attached it.
      await rememberLanguage(tool.db, assignment, launch);
      const jwt = await tool.signDeepLinking(launch, [assetProcessorItem(assignment, tool.urls.launch)], {
        message: t('attach.attached', { title: assignment.title }),
      });
      res.send(
        render('deep-link-return', { returnUrl: launch.message.returnUrl, jwt, title: assignment.title }, words),
      );
    },
  );
  return router;
}
