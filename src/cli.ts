// `npm run cli -- <command>`: administration from a terminal. With the embedded database it uses the running
// server's database through its socket, and opens the data directory itself only when no server runs.
import { ConfigError, loadConfig, type Config } from './config.js';
import { migrateToLatest, openDatabase, pendingMigrations, type Database } from './db/index.js';
import { platformCommand, UsageError } from './cli-platform.js';
import { accountCommand } from './cli-account.js';
import { studentCommand } from './cli-student.js';
import { explainStartupFailure } from './startup-errors.js';

interface Command {
  summary: string;
  run(database: Database, config: Config, args: string[]): Promise<void>;
}

const commands: Record<string, Command> = {
  migrate: {
    summary: 'apply the database migrations this version carries',
    async run(database) {
      const applied = await migrateToLatest(database.db);
      console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}.` : 'The database is up to date.');
    },
  },
  platform: {
    summary: 'register LMS platforms: platform add|list|remove|activate|deactivate (see: platform help)',
    run: platformCommand,
  },
  account: {
    summary: 'service accounts at the checking service: account add|list|test|use|remove (see: account help)',
    run: accountCommand,
  },
  student: {
    summary: 'a student\'s data on request: student export|erase --issuer URL --subject SUB',
    run: studentCommand,
  },
  status: {
    summary: 'show which database is in use and whether it is up to date',
    async run(database, config) {
      const pending = await pendingMigrations(database.db);
      console.log(`Database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`);
      console.log(`Migrations: ${pending.length === 0 ? 'all applied' : `pending ${pending.join(', ')}`}`);
    },
  },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`);
  return `Usage: npm run cli -- <command>\n\nCommands:\n${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`${error instanceof ConfigError ? error.message : explainStartupFailure(error)}\n`);
    return 1;
  }
  let database: Database;
  try {
    database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2, embedded: 'share' });
  } catch (error) {
    process.stderr.write(`${explainStartupFailure(error)}\n`);
    return 1;
  }
  try {
    await command.run(database, config, args);
    return 0;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
