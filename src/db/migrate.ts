import { Migrator, sql, type Kysely } from 'kysely';
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

// Numbers are handed out to changes made side by side, so a database may have applied a later one before an earlier
// one exists: each migration stands alone, and the missing ones are applied in their turn.
function migrator<T>(db: Kysely<T>): Migrator {
  return new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
}

/**
 * Whether the database has applied exactly the migrations this code knows: what nearly every start finds, said by
 * one query rather than the migrator's lock and table set-up (over a second of a start on the embedded database).
 * Anything else (no table yet, one pending, one this code does not know) goes through the migrator.
 */
async function exactlyApplied<T>(db: Kysely<T>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
    const applied = new Set(rows.map((row) => row.name));
    return applied.size === migrationNames.length && migrationNames.every((name) => applied.has(name));
  } catch {
    return false;
  }
}

async function appliedNames<T>(db: Kysely<T>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
    return rows.map((row) => row.name);
  } catch {
    return [];
  }
}

/** Applies every migration not yet applied; returns the names applied now. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  if (await exactlyApplied(db)) return [];
  const applied = await appliedNames(db);
  const unknown = applied.filter((name) => !migrationNames.includes(name));
  // A database this code cannot take forward: it has applied migrations this code does not know, from a build before
  // 1.0.0 (every database of 1.0.0 or later begins with the baseline) or from a newer release. The migrator's own
  // words ("corrupted migrations") would say neither.
  if (unknown.length > 0) {
    const before = !applied.includes(migrationNames[0]!);
    throw new MigrationError(
      unknown[0],
      new Error(
        before
          ? 'this database was made by a build before release 1.0.0, whose changes the 1.0.0 schema replaced; start with an empty database (or DATA_DIR) and register the LMSs again'
          : `this database has changes this release does not know (${unknown.join(', ')}): it was made by a newer release, which is the one to run`,
      ),
    );
  }
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
