// Every migration of the tool, in order: the baseline of release 1.0.0, then one file per later change. A new one is a
// new file here and a line below; a released one never changes (test/db/upgrade.test.ts applies every later one to a
// database of the release before).
import type { Migration, MigrationProvider } from 'kysely';
import * as baseline from './0001_baseline.js';

const migrations: Record<string, Migration> = {
  '0001_baseline': baseline,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

export const migrationNames = Object.keys(migrations);

/**
 * The last migration of the latest release: a database of that release has applied it and every one before. Moved
 * forward at each release (CHANGELOG.md); every migration after it is tested from that release's schema.
 */
export const lastReleased = { version: '1.0.0', migration: '0001_baseline' } as const;
