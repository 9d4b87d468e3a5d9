// The composition root: from a Config to a running tool (database, migrations, ltijs, the checking service or
// its sandbox, the job workers, the HTTP server), and back down.
import type { Server } from 'node:http';
import { join } from 'node:path';
import { Router } from 'express';
import { connectChecker, ServiceConnections, type Connect } from '../accounts/connections.js';
import type { PaperService } from '../checker/index.js';
import type { Config } from '../config/config.js';
import { databaseReadiness, migrateToLatest, type Database } from '../db/index.js';
import { Jobs } from '../jobs/index.js';
import { queueHealth } from '../jobs/queue-health.js';
import { sweepStates } from '../lti/oidc-state.js';
import { databaseSpace, reclaimDeadSpace } from '../db/dead-space.js';
import { PlatformDirectory } from '../lti/platform-directory.js';
import { allowPlatformNetworks } from '../lti/platform-http.js';
import type { LtiSetup } from '../lti/ltijs/provider.js';
import { toolUrls } from '../lti/provider.js';
import { saveRegistration } from '../lti/registrations.js';
import type { Logger } from '../observe/logger.js';
import { ToolMetrics } from '../observe/metrics.js';
import type { Sandbox } from '../sandbox/index.js';
import { storedFileTotals } from '../submissions/file-store.js';
import { countSubmissionsByState } from '../submissions/state-counts.js';
import { isLoopbackName } from '../config/loopback.js';
import { createHealthApp, createWebApp } from '../web/app.js';
import { closeServers, listenOnHosts } from '../web/http-server.js';
import { localClientsOnly } from '../web/local-only.js';
import { rejectedLaunchHandler } from '../web/rejected-launch.js';
import { startWorker } from './worker.js';
import { gradebookSink } from '../grades/gradebook-sink.js';
import { assetReportSink } from '../assetprocessor/report-sink.js';
import { sinkByAssignmentKind } from '../submissions/result-sink.js';
import { openToolDatabase } from './tool-database.js';

/** How often the embedded database is looked at for dead rows worth vacuuming (a read of its table statistics). */
const RECLAIM_EVERY_MS = 10_000;

export interface RunningTool {
  /** The address the HTTP server listens on (PUBLIC_URL is what others use). */
  listenUrl: string;
  database: Database;
  /** ltijs (the keys route, deep linking's signature); null in a worker, which does not load it. */
  lti: LtiSetup | null;
  /** The registered platforms (lti/platform-directory.ts), the store registrations are saved with. */
  platforms: PlatformDirectory;
  jobs: Jobs;
  /** The checking service per assignment: the platform's own account or the default one. */
  services: ServiceConnections;
  /** The in-process stand-in for the checking service, when no CHECKER_URL is set. */
  sandbox: Sandbox | null;
  /** The dev platform's address, where it is mounted (outside production, unless DEV_PLATFORM=off). */
  devPlatformUrl: string | null;
  close(): Promise<void>;
}

/** The checking service: the configured one, or (without CHECKER_URL) the sandbox started here. */
async function connectService(
  config: Config,
  logger: Logger,
  connect: Connect,
): Promise<{ service: PaperService; sandbox: Sandbox | null }> {
  if (config.checker.url && config.checker.username && config.checker.password) {
    return {
      service: connect({
        baseUrl: config.checker.url,
        username: config.checker.username,
        password: config.checker.password,
      }),
      sandbox: null,
    };
  }
  // The sandbox (and the PDF library its reports need) is loaded only when it stands in for the service.
  const { DEMO_USER, startSandbox } = await import('../sandbox/index.js');
  // Its folders and papers are kept in DATA_DIR, so that a restart goes on with them (resumed once the tool listens).
  const dataDir = join(config.dataDir, 'sandbox');
  const sandbox = await startSandbox({
    delayMs: config.sandboxDelayMs,
    callbackUrl: `${config.publicUrl}/checker/callback/${config.callbackSecret}`,
    logger: (line, level = 'warn') => logger[level]({ sandbox: true }, line),
    dataDir,
  });
  if (sandbox.restored) {
    const { folders, papers, skippedLines } = sandbox.restored;
    logger.info(
      { sandbox: true, dataDir, folders, papers, skippedLines },
      `The sandbox found its data in ${dataDir}: ${folders} folders, ${papers} papers`,
    );
  }
  logger.warn(
    { sandboxUrl: sandbox.url },
    'No CHECKER_URL is set: the sandbox stands in for the checking service (computed similarity, simulated AI and grammar scores)',
  );
  return {
    service: connect({ baseUrl: sandbox.url, username: DEMO_USER.email, password: DEMO_USER.password }),
    sandbox,
  };
}

/**
 * Outside production (and unless DEV_PLATFORM=off): the dev platform at /dev, registered with the tool, with one
 * demo activity. It answers people on this machine only unless DEV_PLATFORM=on.
 */
async function mountDevPlatform(
  config: Config,
  database: Database,
  platforms: PlatformDirectory,
  logger: Logger,
): Promise<Array<{ path: string; router: Router }>> {
  const urls = toolUrls(config.publicUrl);
  const { createDevPlatform } = await import('../devplatform/index.js');
  const platform = await createDevPlatform({
    baseUrl: `${config.publicUrl}/dev`,
    rules: 'spec',
    tool: {
      loginUrl: urls.login,
      launchUrl: urls.launch,
      jwksUrl: urls.keys,
      registerUrl: urls.register,
      assetProcessor: config.assetProcessor,
    },
    // Its course and gradebook are kept in DATA_DIR as the sandbox's data is, so a restart finds what was posted.
    stateFile: join(config.dataDir, 'devplatform', 'state.json'),
  });
  if (!platform.resourceLinks().some((link) => link.id === 'demo-essay'))
    platform.addResourceLink({
      id: 'demo-essay',
      title: 'Demo essay',
      lineItem: { label: 'Demo essay', scoreMaximum: 100, tag: 'similarity' },
    });
  try {
    await saveRegistration({ db: database.db, provider: platforms }, platform.registration(), 'dev-platform');
  } catch (error) {
    // Registrations take https or localhost only; a plain-http PUBLIC_URL elsewhere has no dev platform.
    logger.warn(
      { reason: (error as Error).message },
      'The dev platform is not mounted: PUBLIC_URL must be https or localhost',
    );
    return [];
  }
  // Reachable from elsewhere: listening beyond loopback, or (behind a proxy on this machine) through PUBLIC_URL.
  const exposed = config.listenHosts.filter((host) => !isLoopbackName(host));
  const reachableAs =
    exposed.length > 0 ? `HOST=${exposed.join(', ')}` : config.loopbackOnly ? null : `PUBLIC_URL=${config.publicUrl}`;
  if (reachableAs && config.devPlatform === 'on') {
    logger.warn(
      { reachableAs, devPlatform: 'on' },
      `DEV_PLATFORM=on and ${reachableAs}: anyone who can reach this address can open /dev, sign in as the demo LMS's administrator and instructor, and see every submission. Use it only on a network you trust, never in production.`,
    );
  } else if (reachableAs) {
    logger.warn(
      { reachableAs, devPlatform: 'loopback' },
      `${reachableAs} is reachable from the network; the dev platform at /dev still answers only to browsers on this machine (DEV_PLATFORM=on opens it, DEV_PLATFORM=off removes it).`,
    );
  }
  if (config.devPlatform === 'on') return [{ path: '/dev', router: platform.router }];
  const gated = Router();
  gated.use(
    localClientsOnly({ publicUrl: config.publicUrl, what: 'The dev platform', switchName: 'DEV_PLATFORM=on' }),
    platform.router,
  );
  return [{ path: '/dev', router: gated }];
}

/**
 * `opening`: the database already being opened (main.ts starts it while this module loads); without it, opened here.
 */
export async function startTool(
  config: Config,
  logger: Logger,
  opening: Promise<Database> = openToolDatabase(config, logger),
): Promise<RunningTool> {
  allowPlatformNetworks(config.platformPrivateNetworks);
  // The modules only some settings need load while the database starts (its own thread), not after it.
  if (config.checker.url === null) void import('../sandbox/index.js').catch(() => undefined);
  if (config.role !== 'worker' && config.devPlatform !== 'off')
    void import('../devplatform/index.js').catch(() => undefined);
  if (config.role !== 'worker') void import('../lti/ltijs/provider.js').catch(() => undefined);
  const database = await opening;
  let servers: Server[] = [];
  let lti: LtiSetup | null = null;
  const platforms = new PlatformDirectory(database.db, config.encryptionKey);
  let sandbox: Sandbox | null = null;
  let worker: { stop(): void } | undefined;
  // Jobs that wait on a service run up to 32 at once per process; PGlite is one backend, where more than a few
  // jobs at once only queue for it and hold the students' receipts up (bench/surge.ts).
  const jobs = new Jobs(database.pool, { ...config.jobs, mostAtOnce: database.kind === 'pglite' ? 8 : 32 }, logger);
  // This tool's own metrics, apart from any other tool started in the process; the gauges are read when /metrics is scraped.
  const metrics = new ToolMetrics({
    read: async () => {
      const [submissionsByState, queues, receivedFiles, space] = await Promise.all([
        countSubmissionsByState(database.db),
        queueHealth(database.pool),
        storedFileTotals(database.db),
        databaseSpace(database.db),
      ]);
      return { submissionsByState, queues, receivedFiles, database: space };
    },
    onReadFailure: (error) =>
      logger.warn({ err: error }, 'The metrics could not read the database; the scrape serves the counters alone'),
  });
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) {
      const span = applied.length === 1 ? applied[0] : `${applied[0]} to ${applied.at(-1)}`;
      logger.info({ migrations: applied }, `Database migrations applied: ${applied.length} (${span})`);
    }
    await jobs.start();
    // ltijs serves web requests only (the keys route, deep linking's signature); workers find the platforms and
    // the tool's keys in the platform table (lti/platform-directory.ts) without it.
    if (config.role !== 'worker') {
      const { setupLti } = await import('../lti/ltijs/provider.js');
      lti = await setupLti({
        encryptionKey: config.encryptionKey,
        pool: database.pool,
        db: database.db,
        publicUrl: config.publicUrl,
        logger,
        onRejectedLaunch: rejectedLaunchHandler(logger),
      });
    }
    const connect = connectChecker(config.checkerTimeoutMs, metrics.observeCheckerCall);
    const connected = await connectService(config, logger, connect);
    sandbox = connected.sandbox;
    const services = new ServiceConnections({
      db: database.db,
      encryptionKey: config.encryptionKey,
      fallback: connected.service,
      connect,
    });
    // Where results go, by the assignment's kind: the LMS gradebook, or asset reports for the Asset Processor.
    const sink = sinkByAssignmentKind(database.db, {
      gradebook: gradebookSink(database.db, jobs),
      'asset-processor': assetReportSink(database.db, jobs),
    });
    if (config.role !== 'web') {
      worker = await startWorker({
        db: database.db,
        jobs,
        services,
        sink,
        provider: platforms,
        pollScheduleSeconds: config.pollScheduleSeconds,
        eulaRequired: config.assetProcessorEula !== null,
        assetDownloadTimeoutMs: config.assetDownloadTimeoutMs,
        assetDownloadGiveUpMs: config.assetDownloadGiveUpMs,
        assetDownloadMinRate: config.assetDownloadMinRate,
        logger,
        metrics,
      });
    }
    if (config.production && config.devPlatformRequested === 'on') {
      logger.warn('DEV_PLATFORM=on is ignored in production: the dev platform is never mounted there');
    }
    const mounts =
      config.role !== 'worker' && config.devPlatform !== 'off'
        ? await mountDevPlatform(config, database, platforms, logger)
        : [];
    const readiness = () => databaseReadiness(database);
    const app =
      lti === null
        ? createHealthApp({ settings: config, readiness, logger, metrics })
        : createWebApp(
            {
              settings: config,
              urls: toolUrls(config.publicUrl),
              db: database.db,
              encryptionKey: config.encryptionKey,
              logger,
              metrics,
              jobs,
              services,
              sink,
              provider: platforms,
              signDeepLinking: lti.signDeepLinking,
            },
            readiness,
            { ltiRoutes: lti.routes, extra: mounts },
          );
    const listening = await listenOnHosts(app, {
      hosts: config.listenHosts,
      port: config.port,
      logger,
      limits: config.http,
    });
    servers = listening.servers;
    const port = listening.port;
    // What the sandbox had not finished when the tool last stopped goes on now that its callbacks find the tool.
    const resumed = sandbox?.resume();
    if (resumed && resumed.waiting + resumed.toAnnounce > 0) {
      logger.info(
        { sandbox: true, ...resumed },
        `The sandbox goes on: ${resumed.waiting} papers waiting for their analysis, ${resumed.toAnnounce} callbacks not yet delivered`,
      );
    }
    logger.info(
      {
        role: config.role,
        listen: config.listenHosts,
        publicUrl: config.publicUrl,
        dynamicRegistration: config.dynamicRegistration,
        database: database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL',
        lti: toolUrls(config.publicUrl),
        ...(mounts.length > 0 ? { devPlatform: `${config.publicUrl}/dev` } : {}),
      },
      `originality-lti is listening on port ${port}`,
    );
    if (config.encryptionKeySource === 'generated') {
      logger.warn(
        `No ENCRYPTION_KEY was set: a new one was generated into ${config.dataDir}. Keep that file with the data.`,
      );
    }
    const housekeeping = setInterval(() => {
      sweepStates(database.db).catch((error: unknown) =>
        logger.warn({ err: error }, 'Could not remove expired OIDC states'),
      );
    }, 60_000);
    housekeeping.unref();
    // PGlite runs no autovacuum: what the tool deletes is vacuumed here once it is worth it (db/dead-space.ts).
    let reclaiming: Promise<unknown> | null = null;
    const reclaim =
      database.kind === 'pglite'
        ? setInterval(() => {
            reclaiming ??= reclaimDeadSpace(database.db)
              .then((tables) => {
                if (tables.length > 0) logger.debug({ tables }, 'Vacuumed the embedded database');
              })
              .catch((error: unknown) =>
                logger.warn({ err: error }, "Could not vacuum the embedded database's deleted rows"),
              )
              .finally(() => (reclaiming = null));
          }, RECLAIM_EVERY_MS)
        : undefined;
    reclaim?.unref();

    const running = lti;
    let closing: Promise<void> | undefined;
    return {
      listenUrl: listening.localUrl,
      database,
      lti: running,
      platforms,
      jobs,
      services,
      sandbox,
      devPlatformUrl: mounts.length > 0 ? `${config.publicUrl}/dev` : null,
      close() {
        clearInterval(housekeeping);
        clearInterval(reclaim);
        worker?.stop();
        closing ??= closeServers(listening.servers, config.shutdownTimeoutMs).then(async () => {
          await jobs.stop(config.shutdownTimeoutMs);
          await reclaiming;
          await running?.close();
          await sandbox?.close();
          await database.close();
        });
        return closing;
      },
    };
  } catch (error) {
    worker?.stop();
    servers.forEach((server) => server.close());
    await jobs.stop(0).catch(() => undefined);
    await lti?.close().catch(() => undefined);
    await sandbox?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}
