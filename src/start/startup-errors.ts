// One sentence for each way start-up can fail, for a person reading the terminal or the service log. Read before
// anything slow is loaded (main.ts's early checks), so the errors whose message is already that sentence are known
// by name rather than by class: naming the database's would load its driver.

/** DatabaseUnreachable, MigrationError (db/), EmbeddedDatabaseBusy (db/embedded-busy.ts), SandboxDataBusy (sandbox/). */
const SAID_ALREADY = new Set(['DatabaseUnreachable', 'MigrationError', 'EmbeddedDatabaseBusy', 'SandboxDataBusy']);

export function explainStartupFailure(error: unknown, port?: number): string {
  if (error instanceof Error && SAID_ALREADY.has(error.name)) return error.message;
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
