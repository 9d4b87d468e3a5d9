// /healthz: the process answers. /readyz: the database answers and carries every migration this code knows.
import { Router } from 'express';
import { sql } from 'kysely';
import { pendingMigrations, type Database } from '../db/index.js';

export function healthRoutes(database: Database): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      await sql`SELECT 1`.execute(database.db);
      const pending = await pendingMigrations(database.db);
      if (pending.length > 0) {
        res.status(503).json({ status: 'not ready', reason: `Database migrations not applied yet: ${pending.join(', ')}.` });
        return;
      }
      res.json({ status: 'ready', database: database.kind });
    } catch {
      res.status(503).json({ status: 'not ready', reason: 'The database does not answer.' });
    }
  });
  return router;
}
