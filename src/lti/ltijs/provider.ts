// ltijs set up for this tool, and the one folder that imports it (the lint rule of DESIGN.md's parts table): our
// PostgreSQL storage plugin, cookies that survive the LMS iframe, and the fixed routes of the design
// (lti/provider.ts), mounted by the web part. What the rest of the tool gets of ltijs is typed by lti/platform.ts:
// the keys route and the signing of deep-linking answers. The platforms are not ltijs's: it reads them from the tool's
// `platform` table through the storage plugin; the rest of the tool looks them up in platform-directory.ts, and
// workers never load this file. The login and the launches never reach
// it: the tool answers them (lti/login.ts, lti/verify-launch.ts, mounted before ltijs's app). What ltijs still does for the
// tool, and why, is measured in docs/architecture.md.
import type { RequestHandler } from 'express';
import type { Kysely } from 'kysely';
import './without-mongoose.js';
import ltijs from 'ltijs';
import type pg from 'pg';
import type { DatabaseSchema } from '../../db/index.js';
import type { DeepLinkingLaunch, LtijsIdToken, RejectedLaunchHandler, SignDeepLinkingResponse } from '../platform.js';
import { readPlatforms } from '../platform-directory.js';
import { LTI_ROUTES } from '../provider.js';
import { registrationCache } from '../registration-cache.js';
import { PostgresLtiStorage, type StorageLogger } from '../storage.js';

export interface LtiSetupOptions {
  encryptionKey: string;
  pool: pg.Pool;
  /** The same database as the pool: the registration cache is kept per database. */
  db: Kysely<DatabaseSchema>;
  publicUrl: string;
  logger: StorageLogger;
  /**
   * What ltijs refuses at its own routes: a request with neither a launch nor a session. It is also ltijs's login and
   * launch handler, which no request reaches (the tool answers the login and the launch address before ltijs's app).
   */
  onRejectedLaunch: RejectedLaunchHandler;
}

export interface LtiSetup {
  storage: PostgresLtiStorage;
  /** The login, launch, keys and registration routes, to mount at LTI_MOUNT_PATH. */
  routes: RequestHandler;
  signDeepLinking: SignDeepLinkingResponse;
  close(): Promise<void>;
}

/** The launch as ltijs reads it to sign its deep-linking answer: its registration and its deep-linking settings. */
function idTokenOf(launch: DeepLinkingLaunch): LtijsIdToken {
  const { message } = launch;
  return {
    iss: launch.issuer,
    clientId: launch.clientId,
    deploymentId: launch.deploymentId,
    platformContext: {
      deepLinkingSettings: {
        deep_link_return_url: message.returnUrl,
        accept_types: message.acceptTypes,
        accept_multiple: message.acceptMultiple,
        ...(message.data !== null ? { data: message.data } : {}),
      },
    },
  };
}

/** ltijs holds one provider per process; this configures it once and deploys it without its own server. */
export async function setupLti(options: LtiSetupOptions): Promise<LtiSetup> {
  const provider = ltijs.Provider;
  const storage = new PostgresLtiStorage(
    options.pool,
    (match) => readPlatforms(options.db, match),
    options.logger,
    registrationCache(options.db),
  );
  const secure = new URL(options.publicUrl).protocol === 'https:';
  provider.setup(
    options.encryptionKey,
    { plugin: storage },
    {
      appRoute: LTI_ROUTES.launch,
      loginRoute: LTI_ROUTES.login,
      keysetRoute: LTI_ROUTES.keys,
      dynRegRoute: LTI_ROUTES.register,
      // The platform posts the id_token cross-site into an iframe: only SameSite=None; Secure cookies arrive there.
      cookies: secure ? { secure: true, sameSite: 'None' } : {},
      // Sessions ride on the ltik alone (no session cookie), so pages work where third-party cookies are blocked.
      // devMode stays off: the state check it would skip is done with the state stored server-side instead.
      ltiaas: true,
      // ltijs's CORS reflects any origin with credentials; the tool's pages are same-origin and need none.
      cors: false,
    },
  );
  provider.onConnect((_token, req, res, next) => options.onRejectedLaunch(req, res, next));
  provider.onDeepLinking((_token, req, res, next) => options.onRejectedLaunch(req, res, next));
  provider.onInvalidToken(options.onRejectedLaunch);
  provider.onSessionTimeout(options.onRejectedLaunch);
  provider.onUnregisteredPlatform(options.onRejectedLaunch);
  provider.onInactivePlatform(options.onRejectedLaunch);

  const sigintBefore = new Set(process.listeners('SIGINT'));
  await provider.deploy({ serverless: true, silent: true });
  // deploy() adds a SIGINT handler that calls process.exit(); the tool shuts down gracefully on its own.
  for (const listener of process.listeners('SIGINT')) {
    if (!sigintBefore.has(listener)) process.removeListener('SIGINT', listener);
  }
  return {
    storage,
    routes: provider.app,
    signDeepLinking: (launch, items, answer) =>
      provider.DeepLinking.createDeepLinkingMessage(idTokenOf(launch), items, answer ?? {}),
    close: async () => {
      await provider.close({ silent: true });
    },
  };
}
