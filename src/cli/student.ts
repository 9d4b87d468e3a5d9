// `npm run cli -- student export|erase --issuer URL --subject SUB`: a student's data on request.
import { parseArgs } from 'node:util';
import { connectChecker, ServiceConnections } from '../accounts/connections.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/index.js';
import { unknownFlagSentence } from './flags.js';
import { UsageError } from './usage.js';
import { eraseStudent, exportStudent } from '../submissions/student-data.js';

const HELP = `Usage:
  npm run cli -- student export --issuer URL --subject SUB    everything the tool holds about the student, as JSON
  npm run cli -- student erase --issuer URL --subject SUB     delete the student's papers at the service, then everything here
  (SUB is the student's user id in the LMS, the LTI "sub"; every registration of the issuer is searched)
`;

export async function studentCommand(database: Database, config: Config, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'export' && action !== 'erase')
    throw new UsageError(`${action ? `Unknown student action "${action}".\n\n` : ''}${HELP}`);
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { issuer: { type: 'string' }, subject: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${unknownFlagSentence(error as Error, ['issuer', 'subject'])}\n\n${HELP}`);
  }
  if (!values.issuer || !values.subject)
    throw new UsageError(`Give --issuer (the platform) and --subject (the student's LTI user id).\n\n${HELP}`);
  const ref = { issuer: values.issuer, subject: values.subject };
  if (action === 'export') {
    const data = await exportStudent(database.db, ref);
    if (!data) throw new Error('The tool holds nothing about that student on that platform.');
    process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    return;
  }
  // Papers in a platform's own service account are deleted with it; the others need the default account.
  const { url, username, password } = config.checker;
  const connect = connectChecker(config.checkerTimeoutMs);
  const fallback = url && username && password ? connect({ baseUrl: url, username, password }) : null;
  const services = new ServiceConnections({ db: database.db, encryptionKey: config.encryptionKey, fallback, connect });
  const report = await eraseStudent(database.db, services, ref);
  if (!report) throw new Error('The tool holds nothing about that student on that platform.');
  console.log(
    `Submissions: ${report.submissions}. Papers deleted at the service: ${report.papersDeletedAtService}. Files the LMS sent, forgotten: ${report.lmsFiles}.`,
  );
  if (report.papersNotDeleted.length > 0) {
    const list = report.papersNotDeleted.map((p) => `${p.paperId} (${p.reason})`).join('; ');
    throw new Error(`Not deleted at the service, so their records are kept; run the erasure again: ${list}`);
  }
  if (report.onTheirWay > 0) {
    throw new Error(
      `${report.onTheirWay} paper(s) of the student are still on their way to the checking service, so they and their records are kept; run the erasure again once they have arrived (a few minutes).`,
    );
  }
  console.log("The student's data is erased.");
}
