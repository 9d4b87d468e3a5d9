// The administrator's page: registrations, the callback URL for the service operator, queue health and failed
// jobs with a retry button. Reached by platform administrators through a launch (their ltik), or with the
// bootstrap token ADMIN_TOKEN in the Authorization header or the form.
import { timingSafeEqual } from 'node:crypto';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES } from '../jobs/index.js';
import { listRegistrations, registrationInput, removeRegistration, saveRegistration, setRegistrationActive } from '../lti/registrations.js';
import { resolveSession } from '../lti/session.js';
import type { InstructorDeps } from './instructor-pages.js';
import { ltikOf } from './session.js';
import { render } from './views.js';

export interface AdminDeps extends InstructorDeps {
  adminToken: string | null;
  publicUrl: string;
  callbackSecret: string;
  toolUrls: Record<string, string>;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What proves the request comes from an administrator: a platform admin's ltik, or the bootstrap token. */
function requireAdmin(deps: AdminDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('AdminToken ') ? header.slice(11) : typeof req.body?.adminToken === 'string' ? req.body.adminToken : null;
    if (deps.adminToken && token && sameSecret(token, deps.adminToken)) {
      res.locals.adminCredential = { field: 'adminToken', value: token };
      return next();
    }
    const ltik = ltikOf(req);
    if (ltik) {
      const session = await resolveSession(deps, ltik);
      if (typeof session === 'object' && session.launch.platformAdmin) {
        res.locals.adminCredential = { field: 'ltik', value: ltik };
        return next();
      }
    }
    res.status(401).send(render('admin-login', {}));
  };
}

interface QueueHealth {
  queue: string;
  waiting: number;
  running: number;
  failed: number;
  oldestWaitingSeconds: number | null;
}

async function queueHealth(db: Kysely<DatabaseSchema>): Promise<QueueHealth[]> {
  const { rows } = await sql<{ name: string; waiting: string; running: string; failed: string; oldest: string | null }>`
    SELECT name,
           count(*) FILTER (WHERE state IN ('created', 'retry')) AS waiting,
           count(*) FILTER (WHERE state = 'active') AS running,
           count(*) FILTER (WHERE state = 'failed') AS failed,
           extract(epoch FROM now() - min(created_on) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now()))::int::text AS oldest
      FROM pgboss.job GROUP BY name`.execute(db);
  return Object.values(QUEUES).map((queue) => {
    const row = rows.find((r) => r.name === queue);
    return { queue, waiting: Number(row?.waiting ?? 0), running: Number(row?.running ?? 0), failed: Number(row?.failed ?? 0), oldestWaitingSeconds: row?.oldest ? Number(row.oldest) : null };
  });
}

async function failedJobs(db: Kysely<DatabaseSchema>): Promise<Array<{ id: string; queue: string; key: string | null; failedAt: Date; reason: string }>> {
  const { rows } = await sql<{ id: string; name: string; singleton_key: string | null; completed_on: Date; output: unknown }>`
    SELECT id, name, singleton_key, completed_on, output FROM pgboss.job WHERE state = 'failed' ORDER BY completed_on DESC LIMIT 100`.execute(db);
  return rows.map((row) => {
    const output = row.output as { message?: unknown } | null;
    return { id: row.id, queue: row.name, key: row.singleton_key, failedAt: row.completed_on, reason: typeof output?.message === 'string' ? output.message.slice(0, 500) : 'no reason recorded' };
  });
}

const jobRetry = z.object({ queue: z.enum(Object.values(QUEUES) as [string, ...string[]]), id: z.string().uuid() });

export function adminRoutes(deps: AdminDeps): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '32kb' });
  const admin = requireAdmin(deps);

  const page = async (_req: Request, res: Response, message: { text: string; tone: 'ok' | 'error' } | null = null, status = 200) => {
    res.status(status).send(
      render('admin', {
        registrations: await listRegistrations(deps.db),
        queues: await queueHealth(deps.db),
        failed: await failedJobs(deps.db),
        callbackUrl: `${deps.publicUrl}/checker/callback/${deps.callbackSecret}`,
        toolUrls: deps.toolUrls,
        credential: res.locals.adminCredential,
        message,
      }),
    );
  };

  router.get('/admin', admin, (req, res) => page(req, res));
  router.post('/admin', form, admin, (req, res) => page(req, res));

  router.post('/admin/registrations', form, admin, async (req, res) => {
    const input = registrationInput.safeParse(req.body);
    if (!input.success) {
      const issue = input.error.issues[0]!;
      return page(req, res, { text: `Not saved: ${String(issue.path[0])} ${issue.message}.`, tone: 'error' }, 400);
    }
    await saveRegistration({ db: deps.db, provider: deps.provider }, input.data, 'admin');
    await page(req, res, { text: `Saved the registration of ${input.data.name}.`, tone: 'ok' });
  });

  router.post('/admin/registrations/:id/:action', form, admin, async (req, res) => {
    const id = z.string().uuid().safeParse(req.params.id);
    const action = req.params.action;
    if (!id.success || !['activate', 'deactivate', 'remove', 'resync-grades'].includes(String(action))) return page(req, res, { text: 'Unknown registration or action.', tone: 'error' }, 404);
    if (action === 'resync-grades') {
      const rows = await deps.db
        .selectFrom('submission')
        .innerJoin('assignment', 'assignment.id', 'submission.assignment_id')
        .select('submission.id')
        .where('assignment.platform_id', '=', id.data)
        .where('submission.state', 'in', ['scored', 'graded'])
        .execute();
      for (const row of rows) await deps.jobs.send(QUEUES.grade, { submissionId: row.id }, { key: row.id });
      return page(req, res, { text: `${rows.length} score${rows.length === 1 ? '' : 's'} queued for the gradebook again.`, tone: 'ok' });
    }
    if (action === 'remove') {
      const registration = (await listRegistrations(deps.db)).find((r) => r.id === id.data);
      if (registration) await removeRegistration({ db: deps.db, provider: deps.provider }, registration);
      return page(req, res, { text: registration ? `Removed ${registration.name}.` : 'Already removed.', tone: 'ok' });
    }
    await setRegistrationActive(deps.db, id.data, action === 'activate');
    await page(req, res, { text: action === 'activate' ? 'Switched on.' : 'Switched off.', tone: 'ok' });
  });

  router.post('/admin/jobs/retry', form, admin, async (req, res) => {
    const input = jobRetry.safeParse(req.body);
    if (!input.success) return page(req, res, { text: 'Unknown job.', tone: 'error' }, 400);
    await deps.jobs.boss.retry(input.data.queue, input.data.id);
    deps.logger.info({ queue: input.data.queue, jobId: input.data.id }, 'Failed job retried by an administrator');
    await page(req, res, { text: 'The job is queued again.', tone: 'ok' });
  });

  return router;
}
