// The composition root: from a Config to a running tool (database, migrations, ltijs, HTTP server), and back down.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { Config } from './config.js';
import { join } from 'node:path';
import { migrateToLatest, openDatabase, type Database } from './db/index.js';
import { Jobs } from './jobs/index.js';
import { sweepStates } from './lti/oidc-state.js';
import { setupLti, toolUrls, type LtiSetup } from './lti/provider.js';
import type { Logger } from './logger.js';
import { createWebApp } from './web/app.js';
import { launchHandlers } from './web/launch.js';

export interface RunningTool {
  /** The address the HTTP server listens on (PUBLIC_URL is what others use). */
  listenUrl: string;
  database: Database;
  lti: LtiSetup | null;
  close(): Promise<void>;
}

export async function startTool(config: Config, logger: Logger): Promise<RunningTool> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    embedded: 'serve',
    onPoolError: (error) => logger.warn({ err: error }, 'A database connection failed; the pool will open a new one'),
  });
  let server: Server | undefined;
  let lti: LtiSetup | null = null;
  const jobs = new Jobs(database.pool, config.jobs, logger);
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'Database migrations applied');
    await jobs.start();

    const serveLti = config.role !== 'worker';
    if (serveLti) {
      lti = await setupLti({
        encryptionKey: config.encryptionKey,
        pool: database.pool,
        publicUrl: config.publicUrl,
        logger,
        ...launchHandlers({ db: database.db, logger }),
      });
    }
    const app = createWebApp({
      settings: config,
      database,
      logger,
      jobs,
      uploadDir: join(config.dataDir, 'uploads'),
      ...(lti ? { lti } : {}),
    });
    server = app.listen(config.port, config.host);
    await once(server, 'listening');
  } catch (error) {
    server?.close();
    await jobs.stop(0).catch(() => undefined);
    await lti?.provider.close({ silent: true }).catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const listening = server;
  logger.info(
    {
      role: config.role,
      publicUrl: config.publicUrl,
      database: database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL',
      ...(lti ? { lti: toolUrls(config.publicUrl) } : {}),
    },
    `originality-lti is listening on port ${port}`,
  );
  if (config.encryptionKeySource === 'generated') {
    logger.warn(`No ENCRYPTION_KEY was set: a new one was generated into ${config.dataDir}. Keep that file with the data.`);
  }

  const housekeeping = setInterval(() => {
    sweepStates(database.db).catch((error: unknown) => logger.warn({ err: error }, 'Could not remove expired OIDC states'));
  }, 60_000);
  housekeeping.unref();

  let closing: Promise<void> | undefined;
  return {
    listenUrl: `http://127.0.0.1:${port}`,
    database,
    lti,
    close() {
      clearInterval(housekeeping);
      closing ??= shutDown(listening, config.shutdownTimeoutMs, async () => {
        await jobs.stop(config.shutdownTimeoutMs);
        await lti?.provider.close({ silent: true });
        await database.close();
      });
      return closing;
    },
  };
}

/** Stops accepting, lets requests in flight finish (up to the timeout), then releases the rest. */
async function shutDown(server: Server, timeoutMs: number, release: () => Promise<void>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  await closed;
  clearTimeout(timer);
  await release();
}
