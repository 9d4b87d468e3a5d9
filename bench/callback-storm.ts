// 10,000 completion callbacks, 30 % of them repeats, for 7,000 papers waiting at the service (its own callbacks
// switched off and the poller far away, so these are the only news), received by a ROLE=web process while a
// ROLE=worker process beside it reads the results back and posts the grades. Measured: callbacks accepted per second,
// the time until every score is in the gradebook, and one final score per paper. The anchors, same client and
// concurrency, same run: the same durable work without the tool (bench/same-work-server.ts: the JSON read and one
// insert committed per callback on the same PostgreSQL server, either each in its own transaction, concurrent, or
// in batches as the tool writes them), and a bare express route that parses the same JSON. Then the answer's
// latency at half the tool's throughput, once every score is in (so that the worker's read-backs are not in it).
import { request } from 'undici';
import {
  closedLoop,
  failures,
  halfLoadRows,
  ms,
  percentile,
  perSecond,
  ratio,
  scaled,
  sleep,
  waitUntil,
  withBareServer,
  withSameWorkServer,
  type LoadResult,
  type Row,
} from './lib.js';
import { essay, startStack, UNLIMITED } from './stack.js';

const CONCURRENCY = 100;
const REPEATS = 0.3;

async function put(url: string, paperId: number): Promise<void> {
  const response = await request(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      paper_id: paperId,
      similarity: '12%',
      download_url: `https://service.example/analysis-gateway/api/download2/${paperId}/KEY`,
      flag: 0,
    }),
  });
  await response.body.dump();
  if (response.statusCode !== 200) throw new Error(`callback answered ${response.statusCode}`);
}

export async function callbackStormBench(): Promise<Row[]> {
  const callbacks = scaled(10_000, 100);
  const papers = Math.round(callbacks * (1 - REPEATS));
  return withBareServer((bare) =>
    withSameWorkServer(async (sameWork) => {
      const stack = await startStack({
        backend: 'postgres',
        role: 'all',
        students: papers,
        admit: UNLIMITED,
        // The callbacks' own cost: the read-backs and grade posts they start run in a worker process beside.
        separateWorker: true,
        sandbox: { delayMs: 200, faults: { callbacks: 'drop' } },
        env: { POLL_SCHEDULE_SECONDS: '86400' },
      });
      try {
        const ltiks = await stack.launchStudents(1, papers);
        const sent = await closedLoop(papers, 50, (i) =>
          stack.submit(ltiks[i]!, `essay-${i + 1}.txt`, essay(i + 1)).then(() => undefined),
        );
        if (sent.failed > 0) throw new Error(`Submissions failed${failures(sent)}`);
        const count = async (where: string) =>
          Number(
            (await stack.pool!.query<{ n: string }>(`SELECT count(*) AS n FROM submission WHERE ${where}`)).rows[0]!.n,
          );
        await waitUntil(
          'every paper at the service',
          async () => (await count(`paper_id IS NOT NULL AND state = 'processing'`)) >= papers,
          30 * 60_000,
          1000,
        );
        const ids = (await stack.pool!.query<{ paper_id: string }>('SELECT paper_id FROM submission')).rows.map((row) =>
          Number(row.paper_id),
        );
        const storm = [
          ...ids,
          ...Array.from({ length: callbacks - papers }, () => ids[Math.floor(Math.random() * ids.length)]!),
        ];
        for (let i = storm.length - 1; i > 0; i -= 1) {
          const j = Math.floor(Math.random() * (i + 1));
          [storm[i], storm[j]] = [storm[j]!, storm[i]!];
        }

        // Each anchor warmed up, then measured over the same callbacks as the tool.
        const anchorUrls = {
          'bare route': `${bare.url}/callback`,
          'same work, one transaction each': `${sameWork.url}/callback`,
          'same work, batched as the tool': `${sameWork.url}/callback-batched`,
        };
        const anchors: Array<{
          name: string;
          url: string;
          result: LoadResult;
          cpuMs: number;
          statements: number;
          commits: number;
        }> = [];
        for (const [name, url] of Object.entries(anchorUrls)) {
          const meter = name === 'bare route' ? bare.meter : sameWork.meter;
          await closedLoop(200, 10, (i) => put(url, storm[i]!));
          const { result, cost: anchorCost } = await meter.costOf(
            () => closedLoop(storm.length, CONCURRENCY, (i) => put(url, storm[i]!)),
            `storm-${name.replace(/[^a-z]+/g, '-')}`,
          );
          anchors.push({ name, url, result, ...anchorCost });
        }
        const started = performance.now();
        const { result: tool, cost } = await stack.meter.costOf(
          () => closedLoop(storm.length, CONCURRENCY, (i) => put(stack.callbackUrl, storm[i]!)),
          'storm',
        );
        let graded = '';
        try {
          await waitUntil(
            'every score in the gradebook',
            async () => (await stack.platform.grades()).fullyGraded >= papers,
            30 * 60_000,
            500,
          );
          graded = `${((performance.now() - started) / 1000).toFixed(0)} s after the first callback`;
        } catch (error) {
          graded = `${(error as Error).message} (${(await stack.platform.grades()).fullyGraded} of ${papers})`;
        }
        // Repeats of callbacks already settled: each still queues a read-back, which finds the paper scored.
        const half = await halfLoadRows(
          'callback',
          tool,
          (i) => put(stack.callbackUrl, storm[i % storm.length]!),
          anchors.map(({ name, url }) => ({ name, one: (i: number) => put(url, storm[i % storm.length]!) })),
          '< 100 ms',
        );
        await sleep(3000); // a read-back or grade post the repeats caused, if any, has time to show
        const grades = await stack.platform.grades();
        const scoredTwice = Number(
          (
            await stack.pool!.query<{ n: string }>(
              `SELECT count(*) AS n FROM (SELECT submission_id FROM submission_event WHERE to_state = 'scored' GROUP BY submission_id HAVING count(*) > 1) twice`,
            )
          ).rows[0]!.n,
        );
        const rate = (r: LoadResult) => r.done / r.seconds;
        const p99 = (r: LoadResult) => percentile(r.latencies, 99);
        return [
          ...anchors.map(({ name, result, cpuMs }): Row => ({
            what: `${storm.length} callbacks (${callbacks - papers} repeats) for ${papers} papers, ${CONCURRENCY} at once: accepted, beside the ${name}`,
            figure: `${perSecond(rate(tool))}${failures(tool)}`,
            anchor: `${perSecond(rate(result))}${failures(result)}`,
            ratio: ratio(rate(tool) / rate(result)),
            goal: name === 'bare route' ? '' : 'ratio ≥ 0.7',
            cost: { ...cost, anchorCpuMs: cpuMs, anchorName: name },
          })),
          ...anchors.map(({ name, result }): Row => ({
            what: `callback answer p99, ${CONCURRENCY} at once, beside the ${name}`,
            figure: ms(p99(tool)),
            anchor: ms(p99(result)),
            ratio: ratio(p99(tool) / p99(result)),
          })),
          ...half,
          { what: 'every score in the gradebook', figure: graded },
          {
            what: 'one result and one grade per paper',
            figure: `${grades.fullyGradedPosts} final scores for ${papers} papers, ${grades.gradedTwice} students scored twice, ${scoredTwice} results stored twice`,
            goal: 'one each',
          },
        ];
      } finally {
        await stack.close();
      }
    }),
  );
}
