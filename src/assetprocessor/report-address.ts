// Where an Asset Processor assignment's reports go when a notice names no address. The specification and Canvas put
// the Asset Report Service's address in every notice (doc/api/document_processor.md, "Submission"); Blackboard Learn
// Ultra's published notice carries none: "the report endpoint comes from the Asset Processor launch"
// (blackboard/BBDN-LTI-Tool-Provider-Node docs/pns.md). The tool keeps the address the last launch of the processor
// named (attach, settings, report review), and the files that waited for one have their reports sent once it is known.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { Jobs } from '../jobs/index.js';
import { CLAIM, scopeAsListed } from '../lti/claims.js';
import { assetReportClaim } from './notices.js';
import { queueAssetReports } from './report-job.js';

export interface ReportAddress {
  url: string;
  scope: string;
}

/** The report address a verified launch's payload (its standard names, lti/claims.ts) names, or null. */
export function reportAddressOf(claims: Record<string, unknown>): ReportAddress | null {
  const parsed = assetReportClaim.safeParse(claims[CLAIM.assetReport]);
  return parsed.success ? { url: parsed.data.report_url, scope: scopeAsListed('report', parsed.data.scope) } : null;
}

/** Keeps the address for the assignment; the reports of its files that had none are sent (queued here). */
export async function rememberReportAddress(db: Kysely<DatabaseSchema>, jobs: Jobs, assignmentId: string, address: ReportAddress | null): Promise<void> {
  if (!address) return;
  await db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('assignment')
      .set({ lms_report_url: address.url, lms_report_scope: address.scope })
      .where('id', '=', assignmentId)
      .where('kind', '=', 'asset-processor')
      .where((eb) => eb.or([eb('lms_report_url', 'is', null), eb('lms_report_url', '!=', address.url), eb('lms_report_scope', 'is', null), eb('lms_report_scope', '!=', address.scope)]))
      .executeTakeFirst();
    if (changed.numUpdatedRows === 0n) return;
    const waiting = await trx.selectFrom('lms_asset').select('id').where('assignment_id', '=', assignmentId).where('report_url', 'is', null).execute();
    await queueAssetReports(jobs, waiting.map((row) => row.id), trx);
  });
}
