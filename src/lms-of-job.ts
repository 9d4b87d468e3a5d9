// Which LMS (platform) each job that calls an LMS calls, as SQL over its row `j` in pgboss.job: the worker gives
// each LMS its share of those queues' places by it (jobs/fair-share.ts). A job's data names the row it acts on; the
// LMS is read from that row when the job is taken, so every job has its LMS, those queued before this rule too.
// An id that is not a uuid (a job of another shape) gives no LMS: such jobs share one group.
import { groupByField, groupBySql, type GroupSql } from './jobs/index.js';

const UUID = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;
/** The data's field (a path into it) as a uuid, or null. */
const uuidAt = (path: string) => `CASE WHEN j.data #>> '{${path}}' ~ ${UUID} THEN (j.data #>> '{${path}}')::uuid END`;

/** A download names its LMS itself. */
export const ASSET_FETCH_LMS: GroupSql = groupByField('platformId');

/** An asset report: the LMS of the asset's assignment. */
export const ASSET_REPORT_LMS: GroupSql = groupBySql(`
  SELECT a.platform_id::text FROM lms_asset x JOIN assignment a ON a.id = x.assignment_id
   WHERE x.id = ${uuidAt('assetRowId')}`);

/** A grade post: the LMS of the submission's assignment; a cell's emptying: the LMS of the cell's assignment. */
export const GRADE_LMS: GroupSql = groupBySql(`
  SELECT a.platform_id::text FROM assignment a
   WHERE a.id = COALESCE(
     (SELECT s.assignment_id FROM submission s WHERE s.id = ${uuidAt('submissionId')}),
     ${uuidAt('clear,assignmentId')})`);
