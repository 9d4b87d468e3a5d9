// The tool started in this test process on a fresh database (migrated already where npm test made a template,
// test/support/db.ts), with its log lines kept for assertions.
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createLogger } from '../../src/observe/logger.js';
import { startTool, type RunningTool } from '../../src/start/tool.js';
import { createTestDatabase, type TestDatabase } from './db.js';

/**
 * A port no one listens on, for a process the test starts later. It is chosen below the kernel's range of ephemeral
 * ports (/proc/sys/net/ipv4/ip_local_port_range, 32768 and up by default): a port the kernel handed out would be
 * handed out again, to the local end of any connection made by the tests running beside this one, before the
 * process the test starts could bind it.
 */
export async function freePort(): Promise<number> {
  const [low, high] = [20_000, 32_767];
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`No free port between ${low} and ${high} after 100 tries.`);
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The job queues quick, as most tests want them: a job picked up within half a second of being queued, and a failed
 * one tried again a second later, where the defaults wait 2 s and 30 s. Spread into a test's settings.
 */
export const FAST_JOBS = { JOB_POLLING_SECONDS: '0.5', JOB_RETRY_DELAY_SECONDS: '1' } as const;

export interface TestTool {
  tool: RunningTool;
  config: Config;
  url: string;
  database: TestDatabase;
  logs: string[];
  stop(): Promise<void>;
}

export async function startTestTool(env: Record<string, string> = {}): Promise<TestTool> {
  const database = await createTestDatabase({ migrated: true });
  // A test that must know the address before the tool starts (to give it to the sandbox) passes PORT.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const config = loadConfig({
    ...database.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'debug',
    ...env,
  });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const tool = await startTool(config, createLogger({ level: config.logLevel, destination }));
  return {
    tool,
    config,
    url: `http://127.0.0.1:${port}`,
    database,
    logs,
    stop: async () => {
      await tool.close();
      await database.drop();
    },
  };
}
