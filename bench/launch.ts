// Full LTI launches against the tool on PostgreSQL: login initiation, the platform's authorization (signed in
// the platform's own process), the id_token form post, and the first page. As many as the tool answers with 50
// browsers at once, then a fixed 200 launches a second for their latency, then one browser at a time 50 ms of
// round trip away from the tool, where each of the tool's hops shows as time. The anchor: the same hops against
// bare express routes (their authorization page in a process of its own, as the platform's is), with the same
// client, in the same run.
import { launch } from '../src/devplatform/agent.js';
import { farBrowser, type Hop } from './far-browser.js';
import {
  comparisonRows,
  halfLoadRows,
  ms,
  percentile,
  ratio,
  scaled,
  throughputAndLatency,
  withBareServer,
  withChild,
  type Cost,
  type Row,
} from './lib.js';
import { startStack, UNLIMITED } from './stack.js';

const CONCURRENCY = 50;
const RATE = 200;
const STUDENTS = 200;
/** Half of a 50 ms round trip between the browser and the tool. */
const ONE_WAY_MS = 25;

/**
 * The socket writes of a launch, per launch and per answer, to the browser and to the process's own connections, and
 * with BENCH_WRITE_TIMES=1 the time inside them.
 */
function writes(cost: Cost): string {
  const answers = cost.answers ?? Number.NaN;
  const server = cost.serverWrites ?? Number.NaN;
  const inside = process.env.BENCH_WRITE_TIMES
    ? `; ${(cost.writeWallMs ?? Number.NaN).toFixed(2)} ms inside them, ${(cost.writeCpuMs ?? Number.NaN).toFixed(2)} ms of it CPU`
    : '';
  return `${server.toFixed(1)} for ${answers.toFixed(1)} answers (${(server / answers).toFixed(2)} each), ${(cost.otherWrites ?? Number.NaN).toFixed(1)} to its own connections${inside}`;
}

/** A launch's requests as the browser's network panel lists them, query values left out (an ltik rides there). */
function hopList(hops: Hop[], names: Record<string, string>): string {
  return hops
    .map((hop) => {
      const url = new URL(hop.url);
      const query = [...url.searchParams.keys()].map((key) => `${key}=…`).join('&');
      return `${hop.method} ${names[url.origin] ?? url.origin}${url.pathname}${query ? `?${query}` : ''} ${hop.status}${hop.far ? ' (far)' : ''}`;
    })
    .join(' → ');
}

/** Launches one after another, each from a browser whose connections to `origin` cross the round trip. */
async function farLaunches(
  origin: string,
  count: number,
  one: () => Promise<void>,
): Promise<{ times: number[]; hops: Hop[] }> {
  const browser = await farBrowser([origin], ONE_WAY_MS);
  try {
    const times: number[] = [];
    let hops: Hop[] = [];
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      const ran = await browser.run(one);
      times.push(performance.now() - started);
      hops = ran.hops;
    }
    return { times, hops };
  } finally {
    await browser.close();
  }
}

export async function launchBench(): Promise<Row[]> {
  return withChild<{ url: string }, Row[]>('bare-server.ts', (auth) =>
    withBareServer(
      async (bare) => {
        const stack = await startStack({ backend: 'postgres', role: 'web', students: STUDENTS, admit: UNLIMITED });
        try {
          const options = { count: scaled(2000, 200), concurrency: CONCURRENCY, rate: RATE };
          const bareLaunch = async () => {
            const result = await launch({ loginInitiationUrl: () => `${bare.url}/login` }, { userId: 'anyone' });
            if (result.status !== 200) throw new Error(`bare route answered ${result.status}`);
          };
          const toolLaunch = async (i: number) => {
            const result = await launch(stack.platform, { userId: `student-${(i % STUDENTS) + 1}` });
            if (result.status !== 200 || !result.ltik) throw new Error(`launch answered ${result.status}`);
          };
          const anchor = await throughputAndLatency(bareLaunch, { ...options, name: 'launch-bare' }, bare.meter);
          const tool = await throughputAndLatency(toolLaunch, { ...options, name: 'launch' }, stack.meter);
          const farCount = scaled(40, 20);
          const farTool = await farLaunches(stack.url, farCount, () => toolLaunch(0));
          const farBare = await farLaunches(bare.url, farCount, bareLaunch);
          const p50 = (times: number[]) => percentile(times, 50);
          const names = { [stack.url]: 'tool', [bare.url]: 'bare', [auth.info.url]: 'bare auth' };
          const platformOrigin = farTool.hops.find((hop) => !hop.far)?.url;
          if (platformOrigin) names[new URL(platformOrigin).origin] = 'platform';
          return [
            ...comparisonRows(
              { throughput: `launches/s, ${CONCURRENCY} at once`, rate: RATE, unit: 'launch' },
              tool,
              [{ name: 'same hops, bare routes', result: anchor, goal: 'ratio ≥ 0.5' }],
              { p99: '< 50 ms' },
            ),
            {
              what: `socket writes per launch (throughput phase): to the browser for its answers; to its own connections${process.env.BENCH_WRITE_TIMES ? '; the wall clock and CPU inside them' : ''}`,
              figure: writes(tool.cost),
              anchor: writes(anchor.cost),
            },
            ...(await halfLoadRows('launch', tool.throughput, toolLaunch, [
              { name: 'same hops, bare routes', one: bareLaunch },
            ])),
            {
              what: `launch wall time p50 / max, one at a time, ${2 * ONE_WAY_MS} ms round trip between browser and tool (each launch's first request to it opens its connection), beside the same hops through bare routes`,
              figure: `${ms(p50(farTool.times))} / ${ms(Math.max(...farTool.times))}`,
              anchor: `${ms(p50(farBare.times))} / ${ms(Math.max(...farBare.times))}`,
              ratio: ratio(p50(farTool.times) / p50(farBare.times)),
            },
            { what: "a launch's requests as the browser sees them (tool)", figure: hopList(farTool.hops, names) },
            { what: "a launch's requests as the browser sees them (bare)", figure: hopList(farBare.hops, names) },
          ];
        } finally {
          await stack.close();
        }
      },
      { BARE_AUTH_URL: auth.info.url },
    ),
  );
}
