// Every migration of the tool, in order. A new one is a new file here and a line below; applied ones never change.
import type { Migration, MigrationProvider } from 'kysely';
import * as ltiRecords from './0001_lti_records.js';
import * as platformsAndPeople from './0002_platforms_and_people.js';
import * as assignments from './0003_assignments.js';
import * as submissions from './0004_submissions.js';
import * as checkerAccounts from './0005_checker_accounts.js';
import * as grades from './0006_grades.js';

const migrations: Record<string, Migration> = {
  '0001_lti_records': ltiRecords,
  '0002_platforms_and_people': platformsAndPeople,
  '0003_assignments': assignments,
  '0004_submissions': submissions,
  '0005_checker_accounts': checkerAccounts,
  '0006_grades': grades,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

export const migrationNames = Object.keys(migrations);
