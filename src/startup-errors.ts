// One sentence for each way start-up can fail, for a person reading the terminal or the service log.
import { DatabaseUnreachable, MigrationError } from './db/index.js';
import { EmbeddedDatabaseBusy } from './db/embedded-busy.js';
import { SandboxDataBusy } from './sandbox/journal.js';

export function explainStartupFailure(error: unknown, port?: number): string {
  if (
    error instanceof DatabaseUnreachable ||
    error instanceof MigrationError ||
    error instanceof EmbeddedDatabaseBusy ||
    error instanceof SandboxDataBusy
  ) {
    return error.message;
  }
  const { code, syscall, path } = (error ?? {}) as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE')
    return `Port ${port ?? ''} is already in use: stop the other program or set PORT to a free port.`;
  if (code === 'EACCES' && syscall === 'listen')
    return `Port ${port ?? ''} needs privileges this process does not have: set PORT above 1023.`;
  if (code === 'EACCES' || code === 'EROFS')
    return `${path ?? 'DATA_DIR'} is not writable by this process: check DATA_DIR.`;
  const detail = error instanceof Error ? error.message : String(error);
  return `Unexpected error: ${detail}`;
}
