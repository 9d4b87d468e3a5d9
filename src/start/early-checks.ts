// What refuses a start, found before any slow work and before anything is written: the data folder's embedded
// database or sandbox open in another live process, the port taken, DATA_DIR not writable. Each is a sentence for a
// person; checked in well under a second, so that a wrong start ends before a person gives up on it (a start that
// fails here leaves no data folder behind). The same failures later (a race) are explained by startup-errors.ts.
import { accessSync, constants, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { Settings } from '../config/config.js';
import { EmbeddedDatabaseBusy } from '../db/embedded-busy.js';
import { embeddedHolder } from '../db/embedded.js';
import { sandboxHolder, SandboxDataBusy } from '../sandbox/journal.js';
import { explainStartupFailure } from './startup-errors.js';
import { ABSENT_ADDRESS } from '../web/http-server.js';

/** Listens on `port` of `host` for a moment; the error that refused it, if any. */
function tryPort(host: string, port: number): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

/** The nearest folder of `path` that exists, and whether this process may create in it. */
function writable(path: string): { folder: string; ok: boolean } {
  let folder = path;
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
    return { folder, ok: true };
  } catch {
    return { folder, ok: false };
  }
}

/** The sentence that refuses this start, or null when nothing found here stands in its way. */
export async function earlyRefusal(
  settings: Pick<Settings, 'databaseUrl' | 'dataDir' | 'checker' | 'role' | 'listenHosts' | 'port'>,
): Promise<string | null> {
  const { folder, ok } = writable(settings.dataDir);
  if (!ok)
    return `DATA_DIR ${settings.dataDir} cannot be ${folder === settings.dataDir ? 'written' : `created in ${folder}`} by this process: check DATA_DIR and the folder's owner.`;
  if (settings.databaseUrl === null) {
    const holder = embeddedHolder(settings.dataDir);
    if (holder !== null) return new EmbeddedDatabaseBusy(holder).message;
  }
  if (settings.checker.url === null) {
    const dir = join(settings.dataDir, 'sandbox');
    const holder = sandboxHolder(dir);
    if (holder !== null) return new SandboxDataBusy(dir, holder).message;
  }
  if (settings.port !== 0) {
    let listened = 0;
    for (const host of settings.listenHosts) {
      const error = await tryPort(host, settings.port);
      if (error === null) listened += 1;
      else if (!(listened > 0 && ABSENT_ADDRESS.has(error.code ?? '')))
        return explainStartupFailure(error, settings.port);
    }
  }
  return null;
}
