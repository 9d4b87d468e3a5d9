// The tool's database as start-up opens it (startTool, and main.ts, which opens it while the rest of the tool loads).
import type { Config } from '../config/config.js';
import { openDatabase, type Database } from '../db/index.js';
import type { Logger } from '../observe/logger.js';

export function openToolDatabase(config: Config, logger: Logger): Promise<Database> {
  return openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    embedded: 'serve',
    onPoolError: (error) => logger.warn({ err: error }, 'A database connection failed; the pool will open a new one'),
  });
}
