// Every migration of the tool, in order. A new one is a new file here and a line below; applied ones never change.
import type { Migration, MigrationProvider } from 'kysely';
import * as ltiRecords from './0001_lti_records.js';
import * as platformsAndPeople from './0002_platforms_and_people.js';
import * as assignments from './0003_assignments.js';
import * as submissions from './0004_submissions.js';
import * as checkerAccounts from './0005_checker_accounts.js';
import * as grades from './0006_grades.js';
import * as assignmentAccount from './0007_assignment_account.js';
import * as frameOrigins from './0008_frame_origins.js';
import * as similarityColumn from './0009_similarity_column.js';
import * as sendLease from './0010_send_lease.js';
import * as oidcStateStorage from './0011_oidc_state_storage.js';
import * as paperAccount from './0012_paper_account.js';
import * as gradeAcknowledged from './0013_grade_acknowledged.js';
import * as coursePerDeployment from './0014_course_per_deployment.js';
import * as platformProductFamily from './0015_platform_product_family.js';
import * as ltiConfigVersion from './0016_lti_config_version.js';
import * as settingsUnreviewed from './0017_settings_unreviewed.js';
import * as assignmentKind from './0020_assignment_kind.js';
import * as lmsAsset from './0021_lms_asset.js';
import * as assetProcessing from './0022_asset_processing.js';
import * as eula from './0023_eula.js';
import * as assetDialects from './0024_asset_dialects.js';
import * as usedOidcState from './0025_used_oidc_state.js';
import * as gradebookCommentDefault from './0026_gradebook_comment_default.js';
import * as receivedFiles from './0030_received_files.js';
import * as oneRegistry from './0031_one_registry.js';
import * as oneLaunchShape from './0032_one_launch_shape.js';
import * as assignmentLanguage from './0033_assignment_language.js';
import * as gradebookFacts from './0034_gradebook_facts.js';
import * as studentDueDate from './0039_student_due_date.js';
import * as replacedAttempts from './0040_replaced_attempts.js';
import * as instructorVisit from './0041_instructor_visit.js';

const migrations: Record<string, Migration> = {
  '0001_lti_records': ltiRecords,
  '0002_platforms_and_people': platformsAndPeople,
  '0003_assignments': assignments,
  '0004_submissions': submissions,
  '0005_checker_accounts': checkerAccounts,
  '0006_grades': grades,
  '0007_assignment_account': assignmentAccount,
  '0008_frame_origins': frameOrigins,
  '0009_similarity_column': similarityColumn,
  '0010_send_lease': sendLease,
  '0011_oidc_state_storage': oidcStateStorage,
  '0012_paper_account': paperAccount,
  '0013_grade_acknowledged': gradeAcknowledged,
  '0014_course_per_deployment': coursePerDeployment,
  '0015_platform_product_family': platformProductFamily,
  '0016_lti_config_version': ltiConfigVersion,
  '0017_settings_unreviewed': settingsUnreviewed,
  '0020_assignment_kind': assignmentKind,
  '0021_lms_asset': lmsAsset,
  '0022_asset_processing': assetProcessing,
  '0023_eula': eula,
  '0024_asset_dialects': assetDialects,
  '0025_used_oidc_state': usedOidcState,
  '0026_gradebook_comment_default': gradebookCommentDefault,
  '0030_received_files': receivedFiles,
  '0031_one_registry': oneRegistry,
  '0032_one_launch_shape': oneLaunchShape,
  '0033_assignment_language': assignmentLanguage,
  '0034_gradebook_facts': gradebookFacts,
  '0039_student_due_date': studentDueDate,
  '0040_replaced_attempts': replacedAttempts,
  '0041_instructor_visit': instructorVisit,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

export const migrationNames = Object.keys(migrations);
