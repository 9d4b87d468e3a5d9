// The sandbox's HTTP surface assembled: fault switches first, then the login, the token check, both families,
// the reports, and the service's error body for everything that goes wrong (unknown routes included).
import express from 'express';
import { createAuth } from './auth.js';
import { createCallbacks } from './callbacks.js';
import { Timers, type SandboxConfig, type SandboxContext, type SandboxFaults } from './context.js';
import { errorHandler, unknownRoute } from './errors.js';
import { faultSwitches } from './faults.js';
import { createFolderActions } from './folders.js';
import { createProcessing } from './processing.js';
import { classroomRoutes } from './routes-classroom.js';
import { proRoutes } from './routes-pro.js';
import { reportRoutes } from './routes-reports.js';
import { SandboxStore } from './store.js';
import { submitPaper } from './submit.js';
import { Clock } from './time.js';
import { createViews } from './views.js';

export interface SandboxApp {
  app: express.Express;
  context: SandboxContext;
  /** Stops analyses and callbacks still waiting; the caller closes the server and removes uploadDir. */
  stop(): void;
}

export function createSandboxApp(config: SandboxConfig, faults: SandboxFaults = {}): SandboxApp {
  const ctx: SandboxContext = {
    config,
    store: new SandboxStore(config.users),
    clock: new Clock(config.utcOffsetMinutes),
    faults: { current: faults },
    stats: { uploads: 0, callbacksSent: 0, requests: 0 },
    issuedTokens: [],
    timers: new Timers(),
  };
  const views = createViews(ctx);
  const processing = createProcessing(ctx, createCallbacks(ctx));
  const folders = createFolderActions(ctx, views);
  const auth = createAuth(ctx);
  const json = express.json({ limit: '64kb' });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(faultSwitches(ctx));
  app.post('/authentication/authenticate', json, auth.login);
  // The token is checked per route, so an unknown address is 404 with or without one.
  const guard = auth.requireToken;
  app.use(classroomRoutes(ctx, views, folders, { guard, json, upload: submitPaper(ctx, views, processing, 'classroom') }));
  app.use(proRoutes(ctx, views, folders, { guard, json, upload: submitPaper(ctx, views, processing, 'pro') }));
  app.use(reportRoutes(ctx, guard));
  app.use(unknownRoute);
  app.use(errorHandler(ctx.clock, config.logger));
  return { app, context: ctx, stop: () => ctx.timers.stop() };
}
