import { Migrator, type Kysely } from 'kysely';
import { migrationNames, migrationProvider } from './migrations/index.js';

export class MigrationError extends Error {
  constructor(
    readonly migration: string | undefined,
    cause: unknown,
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`Database migration ${migration ?? '(unknown)'} failed: ${detail}`, { cause });
    this.name = 'MigrationError';
  }
}

function migrator<T>(db: Kysely<T>): Migrator {
  return new Migrator({ db, provider: migrationProvider });
}

/** Applies every migration not yet applied; returns the names applied now. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw new MigrationError(results?.find((r) => r.status === 'Error')?.migrationName, error);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of the migrations this code knows that the database has not applied. */
export async function pendingMigrations<T>(db: Kysely<T>): Promise<string[]> {
  const known = await migrator(db).getMigrations();
  const applied = new Set(known.filter((m) => m.executedAt !== undefined).map((m) => m.name));
  return migrationNames.filter((name) => !applied.has(name));
}
