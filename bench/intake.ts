// Receipts for 100 KB papers: 100 students sending at once as fast as the tool answers, then a fixed 200
// submissions a second for the receipt's latency. The tool runs as ROLE=web on PostgreSQL, so the figure is
// intake alone (size and type checks, hashing, the file synced to disk, the commit, the queued job). The
// anchor: a bare express route that streams the same upload to disk and syncs it, same client, same run.
import { FormData, request } from 'undici';
import { comparisonRows, halfLoadRow, scaled, throughputAndLatency, withBareServer, type Row } from './lib.js';
import { startStack, UNLIMITED } from './stack.js';

const CONCURRENCY = 100;
const RATE = 200;
const FILE_BYTES = 100 * 1024;

/** A distinct 100 KB text paper for each submission (the same file twice would only return the first receipt). */
function paper(n: number): string {
  const head = `Paper ${n}: ${Math.random()}\n`;
  return head + 'A sentence about rivers, mountains and the people who live between them. '.repeat(Math.ceil(FILE_BYTES / 74)).slice(0, FILE_BYTES - head.length);
}

export async function intakeBench(): Promise<Row[]> {
  return withBareServer(async (bare) => {
    const options = { count: scaled(2000, 200), concurrency: CONCURRENCY, rate: RATE };
    // Fifty attempts at most per student (the settings form's limit): enough students for every submission.
    const students = Math.max(CONCURRENCY, Math.ceil((3.5 * options.count) / 45));
    const stack = await startStack({ backend: 'postgres', role: 'web', students, admit: UNLIMITED });
    try {
      const ltiks = await stack.launchStudents(1, students);
      const bareUpload = async (i: number) => {
        const body = new FormData();
        body.append('file', new Blob([paper(i)]), `paper-${i}.txt`);
        const response = await request(`${bare.url}/upload`, { method: 'POST', body });
        await response.body.dump();
        if (response.statusCode !== 201) throw new Error(`bare upload answered ${response.statusCode}`);
      };
      let n = 0;
      const submit = async () => {
        n += 1;
        await stack.submit(ltiks[n % students]!, `paper-${n}.txt`, paper(n));
      };
      const anchor = await throughputAndLatency(bareUpload, { ...options, name: 'intake-bare' }, bare.meter);
      const tool = await throughputAndLatency(submit, { ...options, name: 'intake' }, stack.meter);
      return [
        ...comparisonRows({ throughput: `receipts/s for 100 KB files, ${CONCURRENCY} students at once`, rate: RATE, unit: 'receipt' }, tool, anchor, { p99: '< 250 ms' }),
        await halfLoadRow('receipt', tool, submit, bareUpload),
      ];
    } finally {
      await stack.close();
    }
  });
}
