// An instructor changes an assignment's settings: saved here at once, then applied to the folder at the service by
// a job (the settings page asks until it is). What the LMS shows follows through the result sink (its caller's).
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { Jobs } from '../jobs/index.js';
import { queueFolderJob } from './folder.js';
import type { AssignmentSettings } from './settings.js';
import { replaceSettings, type Assignment } from './store.js';

export interface SettingsChangeDeps {
  db: Kysely<DatabaseSchema>;
  jobs: Jobs;
}

export async function changeSettings(
  deps: SettingsChangeDeps,
  assignment: Assignment,
  settings: AssignmentSettings,
): Promise<void> {
  await replaceSettings(deps.db, assignment.id, settings);
  await queueFolderJob(deps.jobs, assignment.id);
}
