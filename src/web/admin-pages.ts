// The administrator's page: registrations, the callback URL for the service operator, queue health and failed
// jobs with a retry button. Reached with the bootstrap token ADMIN_TOKEN (in the Authorization header or the
// form), which answers for the whole installation, or by a platform's administrators through a launch (their
// ltik), who answer for their own platform only: one installation may serve several schools, and one school's
// LMS administrator must not read, switch off or re-route another's.
import { failureOf } from '../checker/index.js';
import express, { type Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  accountInput,
  accountOfEachPlatform,
  assignAccount,
  holdsOtherPlatformsFolders,
  listAccounts,
  removeAccount,
  saveAccount,
} from '../accounts/store.js';
import { QUEUE_NAMES } from '../jobs/index.js';
import { sameSecret } from '../config/secrets.js';
import { queueGradeResync } from '../grades/resync.js';
import {
  listRegistrations,
  manualRegistrationInput,
  removeRegistration,
  saveRegistration,
  setRegistrationActive,
} from '../lti/registrations.js';
import { resolveSession } from '../lti/session.js';
import { ltikOf } from './require-session.js';
import { frameForSession } from './framing.js';
import { render, sendMessage, wordsOf } from './views.js';
import { TokenThrottle } from './admin-throttle.js';
import { clientAddressOf } from './client-address.js';
import { toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

/** What an administrator answers for: the whole installation (ADMIN_TOKEN), or the platform they launched from. */
type AdminScope = 'installation' | { platformId: string };

const scopeOf = (res: Response): AdminScope => res.locals.adminScope as AdminScope;
const platformOf = (scope: AdminScope): string | null => (scope === 'installation' ? null : scope.platformId);

/** What proves the request comes from an administrator: a platform admin's ltik, or the bootstrap token. */
function requireAdmin(tool: Tool) {
  const adminToken = tool.settings.adminToken;
  const throttle = new TokenThrottle();
  const clientAddress = clientAddressOf(tool.settings.trustedProxies);
  /** The address refused for sending too many wrong tokens: 429, a sentence, and when to try again. */
  const refuse = (res: Response, refusedMs: number) => {
    const minutes = Math.max(1, Math.ceil(refusedMs / 60_000));
    res.setHeader('Retry-After', String(Math.ceil(refusedMs / 1000)));
    const { t } = wordsOf(res);
    sendMessage(res, 429, t('error.title'), t('admin.login.tooMany', { minutes: String(minutes) }));
  };
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const sent: unknown = header.startsWith('AdminToken ') ? header.slice(11) : req.body?.adminToken;
    const token = typeof sent === 'string' && sent !== '' ? sent : null;
    if (token !== null) {
      const address = clientAddress(req);
      const refusedFor = throttle.refusedFor(address);
      if (refusedFor > 0) {
        tool.logger.info({ address }, 'Admin token not checked: its address sent too many wrong ones');
        return refuse(res, refusedFor);
      }
      if (adminToken && sameSecret(token, adminToken)) {
        throttle.succeeded(address);
        res.locals.adminCredential = { field: 'adminToken', value: token };
        res.locals.adminScope = 'installation' satisfies AdminScope;
        return next();
      }
      const { holdMs, refusedMs } = throttle.failed(address);
      if (refusedMs > 0) {
        tool.logger.warn(
          { address, minutes: refusedMs / 60_000 },
          'Too many wrong admin tokens from one address: its admin tokens are refused for a while',
        );
        return refuse(res, refusedMs);
      }
      if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
    }
    const ltik = ltikOf(req);
    if (ltik) {
      const session = await resolveSession(tool, ltik);
      if (typeof session === 'object' && session.launch.platformAdmin) {
        res.locals.adminCredential = { field: 'ltik', value: ltik };
        res.locals.adminScope = { platformId: session.platformId } satisfies AdminScope;
        // Opened in a session: its own platform may frame the page. With ADMIN_TOKEN, only the tool itself.
        await frameForSession(tool, res, session);
        return next();
      }
    }
    res.status(401).send(render('admin-login', {}, wordsOf(res)));
  };
}

const jobRetry = z.object({ queue: z.enum(QUEUE_NAMES), id: z.string().uuid() });

export function adminRoutes(tool: Tool): Router {
  const { settings } = tool;
  /** CHECKER_URL, the service the installation uses by default; null: the sandbox. */
  const defaultServiceUrl = settings.checker.url;
  /** Who the default service account is, for the page: "user at URL", or the sandbox. */
  const defaultAccount = defaultServiceUrl
    ? `${settings.checker.username ?? ''} at ${defaultServiceUrl}`
    : 'the built-in sandbox (no CHECKER_URL is set)';
  const router = toolRouter();
  const form = express.urlencoded({ extended: false, limit: '32kb' });
  const admin = requireAdmin(tool);
  // Every answer under /admin may hold the bootstrap token (its forms carry it) or what it opens: kept by no cache.
  router.use('/admin', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  /** The registrations an administrator may see and act on. */
  const registrationsIn = async (scope: AdminScope) =>
    (await listRegistrations(tool.db)).filter((r) => scope === 'installation' || r.id === scope.platformId);
  /** The service accounts an administrator may see, test and choose: all, or the one their platform uses. */
  const accountsIn = async (scope: AdminScope) => {
    const accounts = await listAccounts(tool.db);
    if (scope === 'installation') return accounts;
    const own = (await accountOfEachPlatform(tool.db)).get(scope.platformId);
    return accounts.filter((account) => account.id === own);
  };

  /**
   * The service addresses the installation uses: CHECKER_URL and those of the accounts stored. A platform's
   * administrator adds accounts only there; another address (which the tool would then call, and whose answers
   * "test login" shows) takes the installation's administrator.
   */
  const serviceAddresses = async (): Promise<string[]> => {
    const known = [
      ...(defaultServiceUrl ? [defaultServiceUrl.replace(/\/+$/, '')] : []),
      ...(await listAccounts(tool.db)).map((account) => account.baseUrl),
    ];
    return [...new Set(known)];
  };

  const page = async (
    _req: Request,
    res: Response,
    message: { text: string; tone: 'ok' | 'error' } | null = null,
    status = 200,
  ) => {
    const scope = scopeOf(res);
    const registrations = await registrationsIn(scope);
    res.status(status).send(
      render(
        'admin',
        {
          installation: scope === 'installation',
          registrations,
          accounts: await accountsIn(scope),
          accountOf: Object.fromEntries(
            [...(await accountOfEachPlatform(tool.db))].filter(([platformId]) =>
              registrations.some((r) => r.id === platformId),
            ),
          ),
          defaultAccount,
          serviceAddresses: await serviceAddresses(),
          queues: await tool.jobs.queueHealth(),
          failed: await tool.jobs.failedJobs({ platformId: platformOf(scope) }),
          // The callback's secret is the installation's, for the service operator.
          callbackUrl:
            scope === 'installation' ? `${settings.publicUrl}/checker/callback/${settings.callbackSecret}` : null,
          toolUrls: tool.urls,
          credential: res.locals.adminCredential,
          message,
        },
        wordsOf(res),
      ),
    );
  };
  const installationOnly = (what: string) => (req: Request, res: Response, next: NextFunction) =>
    scopeOf(res) === 'installation'
      ? next()
      : page(
          req,
          res,
          { text: `Only the installation's administrator (with ADMIN_TOKEN) can ${what}.`, tone: 'error' },
          403,
        );

  router.get('/admin', admin, (req, res) => page(req, res));
  router.post('/admin', form, admin, (req, res) => page(req, res));

  router.post(
    '/admin/registrations',
    form,
    admin,
    installationOnly('add or change a registration'),
    async (req, res) => {
      const input = manualRegistrationInput.safeParse(req.body);
      if (!input.success) {
        const issue = input.error.issues[0]!;
        return page(req, res, { text: `Not saved: ${String(issue.path[0])} ${issue.message}.`, tone: 'error' }, 400);
      }
      // Only the installation's administrator comes here (ADMIN_TOKEN): a change of the platform's URLs is logged as theirs.
      await saveRegistration(tool, input.data, 'admin', { audit: tool.logger });
      await page(req, res, { text: `Saved the registration of ${input.data.name}.`, tone: 'ok' });
    },
  );

  router.post('/admin/registrations/:id/account', form, admin, async (req, res) => {
    const scope = scopeOf(res);
    const platformId = z.string().uuid().safeParse(req.params.id);
    const choice = z.union([z.literal('default'), z.string().uuid()]).safeParse(req.body?.accountId);
    const accountId = choice.success && choice.data !== 'default' ? choice.data : null;
    const known = platformId.success && (await registrationsIn(scope)).some((r) => r.id === platformId.data);
    if (
      !known ||
      !choice.success ||
      (accountId && !(await accountsIn(scope)).some((account) => account.id === accountId))
    ) {
      return page(req, res, { text: 'Unknown registration or service account.', tone: 'error' }, 404);
    }
    if (!(await assignAccount(tool.db, platformId.data!, accountId)))
      return page(req, res, { text: 'Unknown registration.', tone: 'error' }, 404);
    await page(req, res, {
      text: "Saved. The platform's new assignments use that account; existing ones keep theirs.",
      tone: 'ok',
    });
  });

  router.post('/admin/registrations/:id/:action', form, admin, async (req, res) => {
    const id = z.string().uuid().safeParse(req.params.id);
    const action = req.params.action;
    const registration = id.success ? (await registrationsIn(scopeOf(res))).find((r) => r.id === id.data) : undefined;
    if (!id.success || !['activate', 'deactivate', 'remove', 'resync-grades'].includes(String(action)))
      return page(req, res, { text: 'Unknown registration or action.', tone: 'error' }, 404);
    if (action === 'remove') {
      if (registration) await removeRegistration(tool, registration);
      return page(req, res, { text: registration ? `Removed ${registration.name}.` : 'Already removed.', tone: 'ok' });
    }
    if (!registration) return page(req, res, { text: 'Unknown registration or action.', tone: 'error' }, 404);
    if (action === 'resync-grades') {
      const queued = await queueGradeResync(tool.db, tool.jobs, { platformId: registration.id });
      return page(req, res, {
        text: `${queued} score${queued === 1 ? '' : 's'} queued for the gradebook again.`,
        tone: 'ok',
      });
    }
    await setRegistrationActive(tool.db, registration.id, action === 'activate');
    await page(req, res, { text: action === 'activate' ? 'Switched on.' : 'Switched off.', tone: 'ok' });
  });

  router.post('/admin/accounts', form, admin, async (req, res) => {
    const scope = scopeOf(res);
    const input = accountInput.safeParse(req.body);
    if (!input.success)
      return page(req, res, { text: `Not saved: ${input.error.issues[0]!.message}`, tone: 'error' }, 400);
    const platformId = platformOf(scope);
    if (platformId && !(await serviceAddresses()).includes(input.data.baseUrl)) {
      return page(
        req,
        res,
        {
          text: "Not saved: your platform's account must be at the checking service this installation uses. Another address takes the installation's administrator.",
          tone: 'error',
        },
        403,
      );
    }
    // Saving an account with a known address and username replaces its password: a platform's administrator
    // may do that only to their own platform's account, and only while no other platform depends on it.
    const existing = (await listAccounts(tool.db)).find(
      (account) => account.baseUrl === input.data.baseUrl && account.username === input.data.username,
    );
    if (existing && platformId) {
      const own = (await accountsIn(scope)).some((account) => account.id === existing.id);
      if (!own || existing.platforms > 1 || (await holdsOtherPlatformsFolders(tool.db, existing.id, platformId))) {
        return page(
          req,
          res,
          {
            text: "Not saved: that username at that service is an account other platforms use too. Ask the installation's administrator.",
            tone: 'error',
          },
          403,
        );
      }
    }
    const account = await saveAccount(tool.db, tool.encryptionKey, input.data);
    if (platformId) await assignAccount(tool.db, platformId, account.id);
    tool.logger.info({ accountId: account.id, platformId }, 'Service account saved by an administrator');
    const usedBy = platformId ? " Your platform's new assignments use it." : '';
    await page(req, res, {
      text: `Saved the service account ${account.name}.${usedBy} Test its login below.`,
      tone: 'ok',
    });
  });

  // Test login (an account's id, or "default") and remove.
  router.post('/admin/accounts/:id/:action', form, admin, async (req, res) => {
    const scope = scopeOf(res);
    const id = req.params.id === 'default' ? null : z.string().uuid().safeParse(req.params.id).data;
    const action = req.params.action;
    const account = id ? (await accountsIn(scope)).find((candidate) => candidate.id === id) : undefined;
    if (id === undefined || !(action === 'test' || (action === 'remove' && id !== null)) || (id !== null && !account)) {
      return page(req, res, { text: 'Unknown service account or action.', tone: 'error' }, 404);
    }
    if (action === 'remove') {
      if (scope !== 'installation' && account!.platforms > 1)
        return page(req, res, { text: 'Not removed: other platforms use this account too.', tone: 'error' }, 409);
      const outcome = await removeAccount(tool.db, id!);
      const text = {
        removed: 'Removed. Platforms that used it now use the default account.',
        missing: 'Already removed.',
        'in-use': 'Not removed: assignments keep their folders in this account.',
      }[outcome];
      return page(req, res, { text, tone: outcome === 'in-use' ? 'error' : 'ok' }, outcome === 'in-use' ? 409 : 200);
    }
    try {
      await tool.services.checkLogin(id);
      await page(req, res, { text: 'The login works.', tone: 'ok' });
    } catch (error) {
      await page(req, res, { text: `The login failed: ${failureOf(error).message}`, tone: 'error' }, 502);
    }
  });

  router.post('/admin/jobs/retry', form, admin, async (req, res) => {
    const input = jobRetry.safeParse(req.body);
    if (!input.success) return page(req, res, { text: 'Unknown job.', tone: 'error' }, 400);
    if ((await tool.jobs.failedJobs({ platformId: platformOf(scopeOf(res)), jobId: input.data.id })).length === 0)
      return page(req, res, { text: 'No such failed job.', tone: 'error' }, 404);
    await tool.jobs.retryFailed(input.data.queue, input.data.id);
    tool.logger.info({ queue: input.data.queue, jobId: input.data.id }, 'Failed job retried by an administrator');
    await page(req, res, { text: 'The job is queued again.', tone: 'ok' });
  });

  return router;
}
