// The express 5 application: health, the LTI addresses at /lti (dynamic registration, the guard with the login, the
// launch route, then ltijs's app, express 4, for the keys), then the tool's own pages.
import { fileURLToPath } from 'node:url';
import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import { LTI_MOUNT_PATH } from '../lti/provider.js';
import { isUnstorableText } from '../db/index.js';
import type { Logger } from '../observe/logger.js';
import { adminRoutes } from './admin-pages.js';
import { assignmentPages } from './assignment-pages.js';
import { callbackRoutes } from './callback-route.js';
import { assetProcessorAttachRoutes } from './asset-processor-attach.js';
import { assetProcessorNoticeRoutes } from './asset-processor-notices.js';
import { eulaAcceptRoutes } from './launches/eula.js';
import { deepLinkingRoutes } from './deep-linking.js';
import { healthRoutes, type Readiness } from './health.js';
import { metricsRoutes } from './metrics.js';
import type { ToolMetrics } from '../observe/metrics.js';
import { launchRoute } from './launch-route.js';
import { ltiGuard } from './lti-guard.js';
import { registrationRoutes } from './registration.js';
import { reportRoutes } from './report-routes.js';
import { pdfjsAssets } from './pdfjs-assets.js';
import { securityHeaders } from './security-headers.js';
import { framingFrom } from './framing.js';
import { refuseCrossSiteForms } from './cross-site.js';
import { instructorRoutes } from './instructor-pages.js';
import { studentRoutes } from './student-pages.js';
import { submissionRoutes } from './submission-routes.js';
import { sendMessage, wordsOf } from './views.js';
import { bodyFault } from './body-faults.js';
import { admission } from './admission.js';
import { loggablePath, requestLog } from './request-log.js';
import type { Tool, WebSettings } from './tool-context.js';
import { CASE_SENSITIVE_ROUTING } from './routing.js';

const publicDir = fileURLToPath(new URL('../../public', import.meta.url));

/** What every process serves: the health checks and /metrics (a worker process serves nothing else). */
export interface HealthDependencies {
  settings: Pick<WebSettings, 'publicUrl' | 'metricsToken'>;
  /** Whether the database can serve the tool, for /readyz. */
  readiness(): Promise<Readiness>;
  logger: Logger;
  metrics: ToolMetrics;
}

/** What the web app mounts besides the tool's own routes. */
export interface WebMounts {
  /** ltijs's app (the platforms' keys), under LTI_MOUNT_PATH after the tool's own LTI routes. */
  ltiRoutes: RequestHandler;
  /** Extra routers mounted at their path (the dev platform at /dev outside production). */
  extra?: Array<{ path: string; router: Router }>;
}

/** A worker process's app: the health checks and /metrics, for its orchestrator and its scraper. */
export function createHealthApp(deps: HealthDependencies): express.Express {
  return appWith(deps, () => undefined);
}

/** The web process's app: the health checks, then the LTI addresses and every page, each router given the tool. */
export function createWebApp(
  tool: Tool,
  readiness: HealthDependencies['readiness'],
  mounts: WebMounts,
): express.Express {
  return appWith({ ...tool, readiness }, (app) => mountTool(app, tool, mounts));
}

/** Health and metrics first (never limited), then what `mount` adds, then the answers to a page not found and an error. */
function appWith(deps: HealthDependencies, mount: (app: express.Express) => void): express.Express {
  const { logger, settings } = deps;
  const app = express();
  // Before the first route: the app's router takes the setting when it is made (routing.ts says why).
  app.enable(CASE_SENSITIVE_ROUTING);
  app.disable('x-powered-by');
  app.use(requestLog(logger));
  app.use(healthRoutes(deps.readiness));
  app.use(metricsRoutes({ metrics: deps.metrics, token: settings.metricsToken, publicUrl: settings.publicUrl }));
  mount(app);
  app.use((_req, res) => {
    const { t } = wordsOf(res);
    sendMessage(res, 404, t('refused.notFound'), t('refused.noPage'));
  });
  app.use(errorAnswer(logger));
  return app;
}

function mountTool(app: express.Express, tool: Tool, mounts: WebMounts): void {
  const { settings } = tool;
  // Past the health checks, which are never limited; before anything that waits on the database.
  app.use(admission(settings.admission, tool.logger).middleware);
  app.use(securityHeaders());
  app.use(framingFrom(tool.db));
  app.use('/static', express.static(publicDir, { index: false, maxAge: '1h' }));
  // Browsers ask every site for /favicon.ico, whatever its pages name: the tool's mark, not a 404 in every log.
  app.get('/favicon.ico', (_req, res) => res.sendFile('favicon.ico', { root: publicDir, maxAge: '1d' }));
  app.use(pdfjsAssets());
  // Dynamic registration before the guard: its answer deadline is for the login and launches, while a registration
  // has its own (each call to the LMS is bounded) and must always end in its own page, which the LMS's panel may show.
  app.use(LTI_MOUNT_PATH, registrationRoutes(tool));
  app.use(LTI_MOUNT_PATH, ltiGuard(tool));
  // Every launch is the tool's own: verified, recorded and answered before ltijs's app, which serves the keys.
  app.use(LTI_MOUNT_PATH, launchRoute(tool));
  app.use(LTI_MOUNT_PATH, mounts.ltiRoutes);
  app.use(
    ['/assignments', '/admin', '/deep-linking', '/reports', '/asset-processor'],
    refuseCrossSiteForms(settings.publicUrl),
  );
  app.use(deepLinkingRoutes(tool));
  app.use(assignmentPages(tool));
  app.use(studentRoutes(tool));
  app.use(reportRoutes(tool));
  if (settings.assetProcessor) {
    app.use(assetProcessorNoticeRoutes(tool));
    app.use(eulaAcceptRoutes(tool));
    app.use(assetProcessorAttachRoutes(tool));
  }
  app.use(callbackRoutes(tool));
  app.use(submissionRoutes(tool));
  app.use(instructorRoutes(tool));
  app.use(adminRoutes(tool));
  for (const mount of mounts.extra ?? []) app.use(mount.path, mount.router);
}

function errorAnswer(logger: Logger): ErrorRequestHandler {
  // Pages and JSON clients alike: sendMessage answers `{ error }` to a client that reads JSON (an upload's script,
  // the status poll, a machine's route: answersJson), never an HTML page it cannot show. A body the parser could not
  // take is the client's fault, answered here for every route (body-faults.ts).
  return (error: unknown, req, res, _next) => {
    const fault = bodyFault(error);
    // A client that cut its body off is gone: nothing to answer, nothing to warn of.
    if (fault?.aborted) return void logger.debug({ path: loggablePath(req) }, 'Request body cut off by the client');
    if (fault) {
      logger.warn(
        { path: loggablePath(req), status: fault.status, reason: fault.reason },
        'Request with an unreadable body refused',
      );
      if (res.headersSent) return;
      const words = wordsOf(res);
      return sendMessage(res, fault.status, words.t('error.title'), fault.say(words));
    }
    const unstorable = isUnstorableText(error);
    const status = unstorable
      ? 400
      : typeof (error as { status?: unknown }).status === 'number'
        ? (error as { status: number }).status
        : 500;
    if (status >= 500) logger.error({ err: error, path: loggablePath(req) }, 'Request failed');
    if (res.headersSent) return;
    const { t } = wordsOf(res);
    const message = t(
      unstorable
        ? 'error.unstorable'
        : status === 400
          ? 'error.unreadable'
          : status === 413
            ? 'error.tooLarge'
            : 'error.ours',
    );
    sendMessage(res, status >= 400 && status < 600 ? status : 500, t('error.title'), message);
  };
}
