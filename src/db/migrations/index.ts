// Every migration of the tool, in order. A new one is a new file here and a line below; applied ones never change.
import type { Migration, MigrationProvider } from 'kysely';
import * as ltiRecords from './0001_lti_records.js';

const migrations: Record<string, Migration> = {
  '0001_lti_records': ltiRecords,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

export const migrationNames = Object.keys(migrations);
