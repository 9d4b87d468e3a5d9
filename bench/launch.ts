// Full LTI launches against the tool on PostgreSQL: login initiation, the platform's authorization (signed in
// the platform's own process), the id_token form post, and the first page. As many as the tool answers with 50
// browsers at once, then a fixed 200 launches a second for their latency. The anchor: the same hops against
// bare express routes, with the same client, in the same run.
import { launch } from '../src/devplatform/agent.js';
import { comparisonRows, halfLoadRows, scaled, throughputAndLatency, withBareServer, type Row } from './lib.js';
import { startStack, UNLIMITED } from './stack.js';

const CONCURRENCY = 50;
const RATE = 200;
const STUDENTS = 200;

export async function launchBench(): Promise<Row[]> {
  return withBareServer(async (bare) => {
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
      return [
        ...comparisonRows(
          { throughput: `launches/s, ${CONCURRENCY} at once`, rate: RATE, unit: 'launch' },
          tool,
          [{ name: 'same hops, bare routes', result: anchor, goal: 'ratio ≥ 0.5' }],
          { p99: '< 50 ms' },
        ),
        ...(await halfLoadRows('launch', tool.throughput, toolLaunch, [
          { name: 'same hops, bare routes', one: bareLaunch },
        ])),
      ];
    } finally {
      await stack.close();
    }
  });
}
