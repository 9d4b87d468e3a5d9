// The express 5 application: health, the ltijs app (an express 4 app) at /lti, then the tool's own pages.
import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import type { Provider } from 'ltijs';
import type { Database } from '../db/index.js';
import { LTI_MOUNT_PATH } from '../lti/provider.js';
import type { Logger } from '../logger.js';
import { healthRoutes } from './health.js';
import { render } from './views.js';

export interface WebDependencies {
  database: Database;
  logger: Logger;
  /** Absent in a worker process, which serves health checks only. */
  lti?: Provider;
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
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLog(deps.logger));
  app.use(healthRoutes(deps.database));
  if (deps.lti) app.use(LTI_MOUNT_PATH, deps.lti.app);
  for (const mount of deps.mounts ?? []) app.use(mount.path, mount.router);

  app.use((_req, res) => {
    res.status(404).send(render('message', { title: 'Not found', message: 'There is no page at this address.', tone: 'error' }));
  });
  const onError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    if (status >= 500) deps.logger.error({ err: error, path: req.path }, 'Request failed');
    if (res.headersSent) return;
    const message =
      status === 400 ? 'The request could not be read.' : status === 413 ? 'The request is too large.' : 'Something went wrong on our side. Please try again in a moment.';
    res.status(status >= 400 && status < 600 ? status : 500).send(render('message', { title: 'Error', message, tone: 'error' }));
  };
  app.use(onError);
  return app;
}
