// ltijs set up for this tool: our PostgreSQL storage plugin, cookies that survive the LMS iframe, and the fixed
// routes of the design (`/lti/login`, `/lti/launch`, `/lti/keys`, `/lti/register`), mounted by the web part.
import type { Kysely } from 'kysely';
import './without-mongoose.js';
import ltijs, { type LtiErrorHandler, type LtiHandler, type Provider } from 'ltijs';
import type pg from 'pg';
import type { DatabaseSchema } from '../db/index.js';
import { useLaunchKeys } from './platform-keys.js';
import { registrationCache } from './registration-cache.js';
import { PostgresLtiStorage, type StorageLogger } from './storage.js';

export const LTI_MOUNT_PATH = '/lti';
export const LTI_ROUTES = { login: '/login', launch: '/launch', keys: '/keys', register: '/register' } as const;

export interface LtiSetupOptions {
  encryptionKey: string;
  pool: pg.Pool;
  /** The same database as the pool: the registration cache is kept per database. */
  db: Kysely<DatabaseSchema>;
  publicUrl: string;
  logger: StorageLogger;
  onLaunch: LtiHandler;
  onDeepLinking: LtiHandler;
  /** A launch whose token, state or session cannot be validated. */
  onRejectedLaunch: LtiErrorHandler;
}

export interface LtiSetup {
  provider: Provider;
  storage: PostgresLtiStorage;
}

export function toolUrls(publicUrl: string) {
  const base = `${publicUrl}${LTI_MOUNT_PATH}`;
  return {
    login: `${base}${LTI_ROUTES.login}`,
    launch: `${base}${LTI_ROUTES.launch}`,
    keys: `${base}${LTI_ROUTES.keys}`,
    register: `${base}${LTI_ROUTES.register}`,
  };
}

/** ltijs holds one provider per process; this configures it once and deploys it without its own server. */
export async function setupLti(options: LtiSetupOptions): Promise<LtiSetup> {
  const provider = ltijs.Provider;
  const storage = new PostgresLtiStorage(options.pool, options.logger, registrationCache(options.db));
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
  // Launches are verified with the keys the guard fetched under a deadline, not fetched again by ltijs.
  useLaunchKeys(provider);
  provider.onConnect(options.onLaunch);
  provider.onDeepLinking(options.onDeepLinking);
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
  return { provider, storage };
}
