// Where an Asset Processor assignment's reports go when a notice names no address. The specification and Canvas put
// the Asset Report Service's address in every notice (doc/api/document_processor.md, "Submission"); Blackboard Learn
// Ultra's published notice carries none: "the report endpoint comes from the Asset Processor launch"
// (blackboard/BBDN-LTI-Tool-Provider-Node docs/pns.md). The tool keeps the address the last launch of the processor
// named (attaching it, or its settings), and the files that waited for one have their reports sent once it is known.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { Jobs } from '../jobs/index.js';
import type { ReportAddress } from '../lti/claims.js';
import { queueAssetReports } from './report-job.js';

/** Keeps the address for the assignment; the reports of its files that had none are sent (queued here). */
export async function rememberReportAddress(
  db: Kysely<DatabaseSchema>,
  jobs: Jobs,
  assignmentId: string,
  address: ReportAddress | null,
): Promise<void> {
  if (!address) return;
  await db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('assignment')
      .set({ lms_report_url: address.url, lms_report_scope: address.scope })
      .where('id', '=', assignmentId)
      .where('kind', '=', 'asset-processor')
      .where((eb) =>
        eb.or([
          eb('lms_report_url', 'is distinct from', address.url),
          eb('lms_report_scope', 'is distinct from', address.scope),
        ]),
      )
      .executeTakeFirst();
    if (changed.numUpdatedRows === 0n) return;
    const waiting = await trx
      .selectFrom('lms_asset')
      .select('id')
      .where('assignment_id', '=', assignmentId)
      .where('report_url', 'is', null)
      .execute();
    await queueAssetReports(
      jobs,
      waiting.map((row) => row.id),
      trx,
    );
  });
}
