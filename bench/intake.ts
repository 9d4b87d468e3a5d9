// Receipts for 100 KB papers: 100 students sending at once as fast as the tool answers, then a fixed 200
// submissions a second for the receipt's latency. The tool runs as ROLE=web on PostgreSQL, so the figure is
// intake alone (size and type checks, hashing, the file written into the database with the submission in one
// commit, the queued job). Two anchors, same client, same run: the same work without the tool
// (bench/same-work-server.ts: the upload hashed while it streams, its bytes and the receipt's row in one
// INSERT … RETURNING committed on the same PostgreSQL server), and a bare express route that streams it to disk and
// syncs it.
import { FormData, request } from 'undici';
import {
  comparisonRows,
  halfLoadRows,
  scaled,
  throughputAndLatency,
  withBareServer,
  withSameWorkServer,
  type Row,
} from './lib.js';
import { startStack, UNLIMITED } from './stack.js';

const CONCURRENCY = 100;
const RATE = 200;
const FILE_BYTES = 100 * 1024;

/** A distinct 100 KB text paper for each submission (the same file twice would only return the first receipt). */
function paper(n: number): string {
  const head = `Paper ${n}: ${Math.random()}\n`;
  return (
    head +
    'A sentence about rivers, mountains and the people who live between them. '
      .repeat(Math.ceil(FILE_BYTES / 74))
      .slice(0, FILE_BYTES - head.length)
  );
}

export async function intakeBench(): Promise<Row[]> {
  return withBareServer((bare) =>
    withSameWorkServer(async (sameWork) => {
      const options = { count: scaled(2000, 200), concurrency: CONCURRENCY, rate: RATE };
      // Fifty attempts at most per student (the settings form's limit): enough students for every submission.
      const students = Math.max(CONCURRENCY, Math.ceil((3.5 * options.count) / 45));
      const stack = await startStack({ backend: 'postgres', role: 'web', students, admit: UNLIMITED });
      try {
        const ltiks = await stack.launchStudents(1, students);
        const anchorUpload = (url: string, status: number) => async (i: number) => {
          const body = new FormData();
          body.append('file', new Blob([paper(i)]), `paper-${i}.txt`);
          const response = await request(url, { method: 'POST', body });
          await response.body.dump();
          if (response.statusCode !== status) throw new Error(`${url} answered ${response.statusCode}`);
        };
        const bareUpload = anchorUpload(`${bare.url}/upload`, 201);
        const sameWorkReceipt = anchorUpload(`${sameWork.url}/receipt`, 201);
        let n = 0;
        const submit = async () => {
          n += 1;
          await stack.submit(ltiks[n % students]!, `paper-${n}.txt`, paper(n));
        };
        const bareRun = await throughputAndLatency(bareUpload, { ...options, name: 'intake-bare' }, bare.meter);
        const sameWorkRun = await throughputAndLatency(
          sameWorkReceipt,
          { ...options, name: 'intake-same-work' },
          sameWork.meter,
        );
        const tool = await throughputAndLatency(submit, { ...options, name: 'intake' }, stack.meter);
        return [
          ...comparisonRows(
            { throughput: `receipts/s for 100 KB files, ${CONCURRENCY} students at once`, rate: RATE, unit: 'receipt' },
            tool,
            [
              { name: 'same work', result: sameWorkRun, goal: 'ratio ≥ 0.7' },
              { name: 'bare route', result: bareRun },
            ],
            { p99: '< 250 ms' },
          ),
          ...(await halfLoadRows(
            'receipt',
            tool.throughput,
            submit,
            [
              { name: 'same work', one: sameWorkReceipt },
              { name: 'bare route', one: bareUpload },
            ],
            '< 100 ms',
          )),
        ];
      } finally {
        await stack.close();
      }
    }),
  );
}
