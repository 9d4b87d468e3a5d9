// The express 5 application: health, the tool's checks in front of ltijs, ltijs's app (express 4) at /lti,
// then the tool's own pages.
import { fileURLToPath } from 'node:url';
import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import type { Database } from '../db/index.js';
import { LTI_MOUNT_PATH, toolUrls, type LtiSetup } from '../lti/provider.js';
import type { Logger } from '../logger.js';
import { adminRoutes } from './admin-pages.js';
import { assignmentPages } from './assignment-pages.js';
import { callbackRoutes } from './callback-route.js';
import { deepLinkingRoutes } from './deep-linking.js';
import { healthRoutes } from './health.js';
import { ltiGuard } from './lti-guard.js';
import { registrationRoutes } from './registration.js';
import { reportRoutes } from './report-routes.js';
import type { PaperService } from '../checker/index.js';
import { securityHeaders } from './security-headers.js';
import { instructorRoutes } from './instructor-pages.js';
import { studentRoutes } from './student-pages.js';
import { submissionRoutes } from './submission-routes.js';
import type { Jobs } from '../jobs/index.js';
import { sendMessage } from './views.js';

const publicDir = fileURLToPath(new URL('../../public', import.meta.url));

export interface WebSettings {
  publicUrl: string;
  encryptionKey: string;
  adminToken: string | null;
  callbackSecret: string;
  toolName: string;
  dynamicRegistration: 'open' | 'approve' | 'off';
}

export interface WebDependencies {
  settings: WebSettings;
  database: Database;
  logger: Logger;
  /** Absent in a worker process, which serves health checks only. */
  lti?: LtiSetup;
  jobs?: Jobs;
  service?: PaperService;
  /** Where received files wait until the service has them. */
  uploadDir: string;
  /** Extra routers mounted at their path (the dev platform at /dev outside production). */
  mounts?: Array<{ path: string; router: Router }>;
}

/** One line per request: method, path without its query (an ltik rides there), status, time. */
function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.debug({ method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(ms) }, 'request');
    });
    next();
  };
}

export function createWebApp(deps: WebDependencies): express.Express {
  const { database, logger, settings } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLog(logger));
  app.use(securityHeaders());
  app.use(healthRoutes(database));
  app.use('/static', express.static(publicDir, { index: false, maxAge: '1h' }));
  if (deps.lti) {
    const { provider, storage } = deps.lti;
    const session = { db: database.db, storage, encryptionKey: settings.encryptionKey };
    const urls = toolUrls(settings.publicUrl);
    app.use(LTI_MOUNT_PATH, ltiGuard({ db: database.db, encryptionKey: settings.encryptionKey, logger }));
    app.use(
      LTI_MOUNT_PATH,
      registrationRoutes({
        store: { db: database.db, provider },
        tool: { name: settings.toolName, description: 'Similarity and AI-content checks for submitted papers', urls },
        mode: settings.dynamicRegistration,
        logger,
      }),
    );
    app.use(LTI_MOUNT_PATH, provider.app);
    app.use(deepLinkingRoutes({ ...session, provider, launchUrl: urls.launch }));
    app.use(assignmentPages(session));
    app.use(studentRoutes(session));
    if (deps.jobs) {
      if (deps.service) app.use(reportRoutes({ ...session, service: deps.service, logger }));
      app.use(callbackRoutes({ db: database.db, jobs: deps.jobs, secret: settings.callbackSecret, logger }));
      app.use(submissionRoutes({ ...session, jobs: deps.jobs, uploadDir: deps.uploadDir, logger }));
      app.use(instructorRoutes({ ...session, provider, jobs: deps.jobs, logger }));
      app.use(
        adminRoutes({
          ...session,
          provider,
          jobs: deps.jobs,
          logger,
          adminToken: settings.adminToken,
          publicUrl: settings.publicUrl,
          callbackSecret: settings.callbackSecret,
          toolUrls: urls,
        }),
      );
    }
  }
  for (const mount of deps.mounts ?? []) app.use(mount.path, mount.router);

  app.use((_req, res) => {
    sendMessage(res, 404, 'Not found', 'There is no page at this address.');
  });
  const onError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    if (status >= 500) logger.error({ err: error, path: req.path }, 'Request failed');
    if (res.headersSent) return;
    const message =
      status === 400 ? 'The request could not be read.' : status === 413 ? 'The request is too large.' : 'Something went wrong on our side. Please try again in a moment.';
    sendMessage(res, status >= 400 && status < 600 ? status : 500, 'Error', message);
  };
  app.use(onError);
  return app;
}
