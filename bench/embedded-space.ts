// The embedded database's size on disk (PGlite runs no autovacuum; the tool vacuums what it deletes, db/dead-space.ts):
// DATA_DIR after 100 refused 20 MB uploads (stored as they arrive, refused as no document the assignment takes, then
// deleted), and after a term's worth of papers (each kept until the service has it, then deleted). Beside it: the
// database and the write-ahead log as /metrics and `du` read them. BENCH_SCALE shrinks the counts.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'undici';
import { scaled, sleep, waitUntil, type Row } from './lib.js';
import { essay, startStack, UNLIMITED, type Stack } from './stack.js';

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const du = (path: string) => Number(execFileSync('du', ['-sb', path], { encoding: 'utf8' }).split('\t')[0]);

async function gauge(stack: Stack, name: string): Promise<number> {
  const text = await (await request(`${stack.url}/metrics`)).body.text();
  return Number(text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? Number.NaN);
}

async function sizes(stack: Stack): Promise<string> {
  const wal = du(join(stack.dataDir, 'pgdata', 'pg_wal'));
  return (
    `DATA_DIR ${mb(du(stack.dataDir))} (write-ahead log ${mb(wal)}); database ${mb(await gauge(stack, 'originality_database_bytes'))}, ` +
    `dead rows ${await gauge(stack, 'originality_database_dead_rows')}`
  );
}

/** Waits out two of the tool's vacuum rounds (every 10 s) once the work is done. */
const settled = () => sleep(25_000);

export async function embeddedSpaceBench(): Promise<Row[]> {
  const refusals = scaled(100, 5);
  const papers = scaled(2000, 50);
  const students = scaled(400, 10);
  const stack = await startStack({
    backend: 'pglite',
    role: 'all',
    students,
    sandbox: { delayMs: 500 },
    admit: UNLIMITED,
  });
  const rows: Row[] = [];
  // Each figure as it comes: the term takes minutes.
  const push = (row: Row) => (rows.push(row), process.stderr.write(`# ${row.what}: ${row.figure}\n`));
  try {
    const ltiks = await stack.launchStudents(1, students);
    push({ what: 'embedded database at the start (students launched)', figure: await sizes(stack) });
    const noise = Buffer.alloc(20 * MB, 0x01);
    for (let i = 0; i < refusals; i += 1) {
      noise[0] = 1 + (i % 7);
      await stack.submit(ltiks[i % students]!, `noise-${i}.txt`, noise).then(
        () => {
          throw new Error('a file that is no document was taken');
        },
        (error: Error) => {
          if (!/answered 422/.test(error.message)) throw error;
        },
      );
    }
    await settled();
    push({ what: `after ${refusals} refused 20 MB uploads`, figure: await sizes(stack) });
    for (let i = 0; i < papers; i += 1)
      await stack.submit(ltiks[i % students]!, `paper-${i}.txt`, `${essay(i)}\n${essay(i + papers)}`.repeat(10));
    await waitUntil(
      'every paper at the service',
      async () => (await gauge(stack, 'originality_received_files')) === 0,
      1_800_000,
      2000,
    );
    await settled();
    push({ what: `after a term's worth of papers (${papers}, about 30 KB each)`, figure: await sizes(stack) });
    return rows;
  } finally {
    await stack.close();
  }
}
