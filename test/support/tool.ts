// The tool started in this test process on a fresh database (migrated already where npm test made a template,
// test/support/db.ts), with its log lines kept for assertions.
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startTool, type RunningTool } from '../../src/tool.js';
import { createTestDatabase, type TestDatabase } from './db.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

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
