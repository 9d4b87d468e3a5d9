// `npm start`: read the configuration, start the tool, and stop it cleanly on SIGTERM or SIGINT. In a terminal the
// log records are printed for a person to read, and a few plain lines say where to go; elsewhere they are JSON.
//
// What can refuse a start is found first, before anything slow is loaded and before anything is written (every
// setting that is wrong, at once; the data folder open in another process; the port taken): within a second, and a
// start refused there leaves no data folder behind. `--check` stops there (scripts/start.mjs runs it before a build).
// Only then is the rest of the tool loaded, while the database opens beside it.
import {
  ConfigError,
  embeddedDatabaseNote,
  nearMissWarnings,
  parseConfig,
  provideSecrets,
  type Config,
} from './config/config.js';
import { keepNewFilesPrivate, preparePrivateDataDir, tightenedSentence } from './config/data-dir.js';
import { earlyRefusal } from './start/early-checks.js';
import type { Logger } from './observe/logger.js';
import { explainStartupFailure } from './start/startup-errors.js';
import type { RunningTool } from './start/tool.js';

// Everything this process (and PGlite in it) writes is its owner's alone: DATA_DIR holds the database and the keys.
keepNewFilesPrivate();

const warnings = nearMissWarnings();
function fail(sentence: string): never {
  const notes = warnings.map((warning) => `\n  Note: ${warning}`).join('');
  process.stderr.write(`originality-lti could not start. ${sentence}${notes}\n`);
  process.exit(1);
}
const explain = (error: unknown) => (error instanceof ConfigError ? error.message : explainStartupFailure(error));

let config: Config;
try {
  const settings = parseConfig();
  const refusal = await earlyRefusal(settings);
  if (refusal) fail(refusal);
  if (process.argv.includes('--check')) process.exit(0);
  const tightened = preparePrivateDataDir(settings.dataDir);
  config = provideSecrets(settings);
  if (tightened) warnings.push(tightenedSentence(config.dataDir, tightened));
} catch (error) {
  fail(explain(error));
}

const [{ createLogger, terminalDestination }, { openToolDatabase }, { welcomeText }] = await Promise.all([
  import('./observe/logger.js'),
  import('./start/tool-database.js'),
  import('./start/welcome.js'),
]);
const inTerminal = process.stdout.isTTY === true;
const logger: Logger = createLogger({
  level: config.logLevel,
  ...(inTerminal ? { destination: terminalDestination(process.stdout) } : {}),
});
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'Unhandled promise rejection'));
for (const warning of warnings) logger.warn(warning);
const embedded = embeddedDatabaseNote(config);
if (embedded) logger.warn({ dataDir: config.dataDir }, embedded);

let tool: RunningTool;
try {
  // The embedded database starts in its own thread while the tool's modules load here.
  const opening = openToolDatabase(config, logger);
  opening.catch(() => undefined); // startTool takes its failure
  const { startTool } = await import('./start/tool.js');
  tool = await startTool(config, logger, opening);
} catch (error) {
  logger.flush();
  fail(explainStartupFailure(error, config.port));
}
if (inTerminal) {
  process.stdout.write(
    welcomeText({
      publicUrl: config.publicUrl,
      devPlatformUrl: tool.devPlatformUrl,
      devPlatform: config.devPlatform,
      loopbackOnly: config.loopbackOnly,
      embeddedDataDir: config.databaseUrl === null ? config.dataDir : null,
    }),
  );
}

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'Shutting down: finishing requests in flight');
  try {
    await tool.close();
    logger.info('Shutdown complete');
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, 'Shutdown did not complete cleanly');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
