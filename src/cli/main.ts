// `npm run cli -- <command>`: administration from a terminal. With the embedded database it uses the running
// server's database through its socket, and opens the data directory itself only when no server runs.
import { ConfigError, nearMissWarnings, parseConfig, provideSecrets, type Config } from '../config/config.js';
import { keepNewFilesPrivate, preparePrivateDataDir, tightenedSentence } from '../config/data-dir.js';
import { migrateToLatest, openDatabase, pendingMigrations, type Database } from '../db/index.js';
import { platformCommand } from './platform.js';
import { UsageError } from './usage.js';
import { accountCommand } from './account.js';
import { studentCommand } from './student.js';
import { smokeCommand } from './smoke.js';
import { explainStartupFailure } from '../start/startup-errors.js';

interface Command {
  summary: string;
  /** Reads or writes the tool's tables: the database is brought up to date first (a fresh DATA_DIR has none). */
  usesTables: boolean;
  run(database: Database, config: Config, args: string[]): Promise<void>;
}

const commands: Record<string, Command> = {
  migrate: {
    summary: 'apply the database migrations this version carries',
    usesTables: false,
    async run(database) {
      const applied = await migrateToLatest(database.db);
      console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}.` : 'The database is up to date.');
    },
  },
  platform: {
    summary: 'register LMS platforms: platform add|list|remove|activate|deactivate (see: platform help)',
    usesTables: true,
    run: platformCommand,
  },
  account: {
    summary: 'service accounts at the checking service: account add|list|test|use|remove (see: account help)',
    usesTables: true,
    run: accountCommand,
  },
  student: {
    summary: "a student's data on request: student export|erase --issuer URL --subject SUB",
    usesTables: true,
    run: studentCommand,
  },
  smoke: {
    summary: 'check the installation end to end: launch, submit and read a result (see: smoke --help)',
    usesTables: true,
    run: smokeCommand,
  },
  status: {
    summary: 'show which database is in use and whether it is up to date',
    usesTables: false,
    async run(database, config) {
      const pending = await pendingMigrations(database.db);
      console.log(
        `Database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
      );
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
  for (const warning of nearMissWarnings()) process.stderr.write(`Note: ${warning}\n`);
  let config: Config;
  try {
    // The CLI may open the embedded database itself: what it writes in DATA_DIR is the owner's alone too.
    keepNewFilesPrivate();
    const settings = parseConfig();
    const tightened = preparePrivateDataDir(settings.dataDir);
    if (tightened) process.stderr.write(`${tightenedSentence(settings.dataDir, tightened)}\n`);
    config = provideSecrets(settings);
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
    if (command.usesTables) await migrateToLatest(database.db);
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
