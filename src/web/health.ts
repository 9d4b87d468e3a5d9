// /healthz: the process answers. /readyz: the database can serve the tool (the composition root says how to know).
import type { Router } from 'express';
import { toolRouter } from './routing.js';

export type Readiness = { ready: true; kind: string } | { ready: false; reason: string };

export function healthRoutes(readiness: () => Promise<Readiness>): Router {
  const router = toolRouter();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const state = await readiness();
    if (state.ready) res.json({ status: 'ready', database: state.kind });
    else res.status(503).json({ status: 'not ready', reason: state.reason });
  });
  return router;
}
