// A file an LMS announced, as its row (lms_asset) keeps it, with the registration it came from and the report
// address its assignment learnt: what the fetch job (fetch.ts) and the report job (report-job.ts) start from.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';

/** The asset's row, with its platform and its assignment's report address; undefined once it is gone. */
export function assetRow(db: Kysely<DatabaseSchema>, assetRowId: string) {
  return db
    .selectFrom('lms_asset as x')
    .innerJoin('assignment as a', 'a.id', 'x.assignment_id')
    .innerJoin('platform as p', 'p.id', 'a.platform_id')
    .selectAll('x')
    .select(['a.lms_report_url', 'a.lms_report_scope', 'p.id as platform_id', 'p.issuer', 'p.client_id'])
    .where('x.id', '=', assetRowId)
    .executeTakeFirst();
}
