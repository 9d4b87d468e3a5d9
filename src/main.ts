// `npm start`: read the configuration, start the tool, and stop it cleanly on SIGTERM or SIGINT. In a terminal the
// log records are printed for a person to read, and a few plain lines say where to go; elsewhere they are JSON.
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, terminalDestination, type Logger } from './logger.js';
import { explainStartupFailure } from './startup-errors.js';
import { startTool, type RunningTool } from './tool.js';
import { welcomeText } from './welcome.js';

function fail(sentence: string): never {
  process.stderr.write(`originality-lti could not start. ${sentence}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  fail(error instanceof ConfigError ? error.message : explainStartupFailure(error));
}

const inTerminal = process.stdout.isTTY === true;
const logger: Logger = createLogger({
  level: config.logLevel,
  ...(inTerminal ? { destination: terminalDestination(process.stdout) } : {}),
});
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'Unhandled promise rejection'));

let tool: RunningTool;
try {
  tool = await startTool(config, logger);
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
