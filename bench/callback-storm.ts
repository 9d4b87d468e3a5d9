// 10,000 completion callbacks, 30 % of them repeats, for 7,000 papers waiting at the service (its own callbacks
// switched off and the poller far away, so these are the only news), received by a ROLE=web process while a
// ROLE=worker process beside it reads the results back and posts the grades. Measured: callbacks accepted per second,
// the time until every score is in the gradebook, and one final score per paper. The anchor: a bare express
// route that parses the same JSON, same client and concurrency, same run.
import { request } from 'undici';
import { closedLoop, failures, ms, percentile, perSecond, ratio, scaled, waitUntil, withBareServer, type Row } from './lib.js';
import { essay, startStack, UNLIMITED } from './stack.js';

const CONCURRENCY = 100;
const REPEATS = 0.3;

async function put(url: string, paperId: number): Promise<void> {
  const response = await request(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paper_id: paperId, similarity: '12%', download_url: `https://service.example/analysis-gateway/api/download2/${paperId}/KEY`, flag: 0 }),
  });
  await response.body.dump();
  if (response.statusCode !== 200) throw new Error(`callback answered ${response.statusCode}`);
}

export async function callbackStormBench(): Promise<Row[]> {
  const callbacks = scaled(10_000, 100);
  const papers = Math.round(callbacks * (1 - REPEATS));
  return withBareServer(async (bare) => {
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
      const sent = await closedLoop(papers, 50, (i) => stack.submit(ltiks[i]!, `essay-${i + 1}.txt`, essay(i + 1)).then(() => undefined));
      if (sent.failed > 0) throw new Error(`Submissions failed${failures(sent)}`);
      const count = async (where: string) => Number((await stack.pool!.query<{ n: string }>(`SELECT count(*) AS n FROM submission WHERE ${where}`)).rows[0]!.n);
      await waitUntil('every paper at the service', async () => (await count(`paper_id IS NOT NULL AND state = 'processing'`)) >= papers, 30 * 60_000, 1000);
      const ids = (await stack.pool!.query<{ paper_id: string }>('SELECT paper_id FROM submission')).rows.map((row) => Number(row.paper_id));
      const storm = [...ids, ...Array.from({ length: callbacks - papers }, () => ids[Math.floor(Math.random() * ids.length)]!)];
      for (let i = storm.length - 1; i > 0; i -= 1) {
        const j = Math.floor(Math.random() * (i + 1));
        [storm[i], storm[j]] = [storm[j]!, storm[i]!];
      }

      await closedLoop(200, 10, (i) => put(`${bare.url}/callback`, storm[i]!)); // warm-up
      const { result: anchor, cost: anchorCost } = await bare.meter.costOf(() => closedLoop(storm.length, CONCURRENCY, (i) => put(`${bare.url}/callback`, storm[i]!)), 'storm-bare');
      const started = performance.now();
      const { result: tool, cost } = await stack.meter.costOf(() => closedLoop(storm.length, CONCURRENCY, (i) => put(stack.callbackUrl, storm[i]!)), 'storm');
      let graded = '';
      try {
        await waitUntil('every score in the gradebook', async () => (await stack.platform.grades()).fullyGraded >= papers, 30 * 60_000, 500);
        graded = `${((performance.now() - started) / 1000).toFixed(0)} s after the first callback`;
      } catch (error) {
        graded = `${(error as Error).message} (${(await stack.platform.grades()).fullyGraded} of ${papers})`;
      }
      const grades = await stack.platform.grades();
      const scoredTwice = Number(
        (await stack.pool!.query<{ n: string }>(`SELECT count(*) AS n FROM (SELECT submission_id FROM submission_event WHERE to_state = 'scored' GROUP BY submission_id HAVING count(*) > 1) twice`)).rows[0]!.n,
      );
      const rate = (r: typeof tool) => r.done / r.seconds;
      return [
        { what: `${storm.length} callbacks (${callbacks - papers} repeats) for ${papers} papers, ${CONCURRENCY} at once: accepted`, figure: `${perSecond(rate(tool))}${failures(tool)}`, anchor: `${perSecond(rate(anchor))} bare route${failures(anchor)}`, ratio: ratio(rate(tool) / rate(anchor)), goal: '≥ 1000/s', cost: { ...cost, anchorCpuMs: anchorCost.cpuMs } },
        { what: 'callback answer p99', figure: ms(percentile(tool.latencies, 99)), anchor: ms(percentile(anchor.latencies, 99)), ratio: ratio(percentile(tool.latencies, 99) / percentile(anchor.latencies, 99)) },
        { what: 'every score in the gradebook', figure: graded },
        { what: 'one result and one grade per paper', figure: `${grades.fullyGradedPosts} final scores for ${papers} papers, ${grades.gradedTwice} students scored twice, ${scoredTwice} results stored twice`, goal: 'one each' },
      ];
    } finally {
      await stack.close();
    }
  });
}
