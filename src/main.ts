// `npm start`: read the configuration, start the tool, and stop it cleanly on SIGTERM or SIGINT.
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { explainStartupFailure } from './startup-errors.js';
import { startTool, type RunningTool } from './tool.js';

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

const logger: Logger = createLogger({ level: config.logLevel });
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'Unhandled promise rejection'));

let tool: RunningTool;
try {
  tool = await startTool(config, logger);
} catch (error) {
  logger.flush();
  fail(explainStartupFailure(error, config.port));
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
