// Whether the database can serve the tool (/readyz): it answers, and it carries every migration this code knows.
import { sql, type Kysely } from 'kysely';
import { pendingMigrations } from './migrate.js';

export type Readiness = { ready: true; kind: 'postgres' | 'pglite' } | { ready: false; reason: string };

export async function databaseReadiness<T>(database: {
  db: Kysely<T>;
  kind: 'postgres' | 'pglite';
}): Promise<Readiness> {
  try {
    await sql`SELECT 1`.execute(database.db);
    const pending = await pendingMigrations(database.db);
    if (pending.length > 0)
      return { ready: false, reason: `Database migrations not applied yet: ${pending.join(', ')}.` };
    return { ready: true, kind: database.kind };
  } catch {
    return { ready: false, reason: 'The database does not answer.' };
  }
}
