// The sandbox's HTTP surface assembled: fault switches first, then the login, the token check, both families,
// the reports, and the service's error body for everything that goes wrong (unknown routes included).
import { join } from 'node:path';
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
import type { Paper } from './records.js';
import { submitPaper } from './submit.js';
import { Clock } from './time.js';
import { createViews } from './views.js';

export interface SandboxApp {
  app: express.Express;
  context: SandboxContext;
  /**
   * With a journal: goes on with what was left when it last stopped (the analyses of the papers still waiting,
   * the callbacks not yet delivered). Called once the callbacks' target listens.
   */
  resume(): { waiting: number; toAnnounce: number };
  /** Stops analyses and callbacks still waiting; the caller closes the server and removes uploadDir. */
  stop(): void;
}

/**
 * The store the journal held (rewritten with the live data alone), or a new one in memory; and the papers it had
 * left unfinished: still waiting for their analysis, or analysed with their callback not yet delivered.
 */
function openStore(config: SandboxConfig): { store: SandboxStore; unfinished: Paper[] } {
  const journal = config.journal;
  if (!journal) return { store: new SandboxStore(config.users), unfinished: [] };
  const store = SandboxStore.restore(config.users, journal.takeEntries(), journal);
  journal.rewrite(store.snapshot());
  const papers = [...store.papers.values()].sort((a, b) => a.id - b.id);
  journal.removeUploadsExcept(new Set(papers.flatMap((paper) => (paper.upload ? [paper.upload] : []))));
  return {
    store,
    unfinished: papers.filter((paper) => (paper.state === 'pending' ? paper.upload !== null : !paper.announced)),
  };
}

export function createSandboxApp(config: SandboxConfig, faults: SandboxFaults = {}): SandboxApp {
  const { store, unfinished } = openStore(config);
  const ctx: SandboxContext = {
    config,
    store,
    clock: new Clock(config.utcOffsetMinutes),
    faults: { current: faults },
    stats: { uploads: 0, callbacksSent: 0, requests: 0 },
    issuedTokens: [],
    timers: new Timers(),
  };
  const views = createViews(ctx);
  const callbacks = createCallbacks(ctx);
  const processing = createProcessing(ctx, callbacks);
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
  app.use(
    classroomRoutes(ctx, views, folders, { guard, json, upload: submitPaper(ctx, views, processing, 'classroom') }),
  );
  app.use(proRoutes(ctx, views, folders, { guard, json, upload: submitPaper(ctx, views, processing, 'pro') }));
  app.use(reportRoutes(ctx, guard));
  app.use(unknownRoute);
  app.use(errorHandler(ctx.clock, config.logger));
  const resume = () => {
    let waiting = 0;
    let toAnnounce = 0;
    for (const paper of unfinished.splice(0)) {
      if (!ctx.store.papers.has(paper.id)) continue; // deleted since
      if (paper.state === 'pending' && paper.upload) {
        // Due when it would have been without the restart (at once if that time has passed).
        const due = paper.uploadedAt.getTime() + config.delayMs;
        processing.schedule(paper, join(config.uploadDir, paper.upload), Math.max(0, due - Date.now()));
        waiting += 1;
      } else if (paper.state !== 'pending' && !paper.announced) {
        callbacks.announce(paper);
        toAnnounce += 1;
      }
    }
    return { waiting, toAnnounce };
  };
  return { app, context: ctx, resume, stop: () => ctx.timers.stop() };
}
