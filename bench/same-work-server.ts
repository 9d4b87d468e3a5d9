// The same-work anchors: the least a receipt and a callback must do to keep their promise, on the same PostgreSQL
// server as the tool, in a tiny node:http server of its own (no framework). A receipt: the upload hashed (SHA-256)
// while it streams into the database as the tool keeps files (a row per full megabyte as it arrives, uncompressed),
// the last part and the receipt's row in one `INSERT … RETURNING` committed, then the answer. A callback:
// its JSON read, one durable insert committed, then the answer; either one transaction per callback, concurrent
// on a pool as large as the tool's (PostgreSQL flushes the log once for the commits that arrive together: its
// group commit), or, at /callback-batched, the callbacks that arrive while a batch is being written go together in
// the next one, up to the tool's batch size, as the tool queues its read-backs. DATABASE_URL names the database
// (a fresh one, its tables made here); ANCHOR_POOL_SIZE the pool (default 10, the tool's default). Prints
// `READY {url}`.
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';

// Metered like the tool (statements, commits, CPU): loaded before the pool's first query.
if (process.env.BENCH_METER_SOCKET) await import(new URL('./meter.mjs', import.meta.url).href);

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL names the database of the same-work anchors.');
const pool = new pg.Pool({ connectionString: url, max: Number(process.env.ANCHOR_POOL_SIZE ?? 10) });
await pool.query(
  `CREATE TABLE IF NOT EXISTS anchor_receipt (id bigserial PRIMARY KEY, file_id uuid NOT NULL, size integer NOT NULL, sha256 text NOT NULL, received_at timestamptz NOT NULL DEFAULT now())`,
);
await pool.query(
  `CREATE TABLE IF NOT EXISTS anchor_file_chunk (file_id uuid NOT NULL, seq integer NOT NULL, bytes bytea NOT NULL, PRIMARY KEY (file_id, seq))`,
);
await pool.query(`ALTER TABLE anchor_file_chunk ALTER COLUMN bytes SET STORAGE EXTERNAL`);
await pool.query(
  `CREATE TABLE IF NOT EXISTS anchor_callback (id bigserial PRIMARY KEY, paper_id bigint NOT NULL, received_at timestamptz NOT NULL DEFAULT now())`,
);

/** The tool's chunk (src/submissions/file-store.ts). */
const CHUNK_BYTES = 1024 * 1024;

/** The tool's batch: at most this many callbacks in one statement (src/submissions/announced-result.ts). */
const MOST_PER_BATCH = 200;

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

async function receipt(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const fileId = randomUUID();
  const hash = createHash('sha256');
  let size = 0;
  let parts: Buffer[] = [];
  let held = 0;
  let seq = 0;
  for await (const piece of req as AsyncIterable<Buffer>) {
    size += piece.length;
    hash.update(piece);
    parts.push(piece);
    held += piece.length;
    if (held > CHUNK_BYTES) {
      const all = Buffer.concat(parts, held);
      await pool.query('INSERT INTO anchor_file_chunk (file_id, seq, bytes) VALUES ($1, $2, $3)', [
        fileId,
        seq++,
        all.subarray(0, CHUNK_BYTES),
      ]);
      parts = [all.subarray(CHUNK_BYTES)];
      held -= CHUNK_BYTES;
    }
  }
  const sha256 = hash.digest('hex');
  const { rows } = await pool.query<{ id: string; received_at: Date }>(
    `WITH chunk AS (INSERT INTO anchor_file_chunk (file_id, seq, bytes) VALUES ($1, $2, $3))
     INSERT INTO anchor_receipt (file_id, size, sha256) VALUES ($1, $4, $5) RETURNING id, received_at`,
    [fileId, seq, Buffer.concat(parts, held), size, sha256],
  );
  answer(res, 201, { id: rows[0]!.id, receivedAt: rows[0]!.received_at, sha256 });
}

async function paperIdOf(req: IncomingMessage): Promise<number | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > 16 * 1024) return null;
    chunks.push(chunk);
  }
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { paper_id?: unknown };
    return Number.isSafeInteger(body.paper_id) && (body.paper_id as number) > 0 ? (body.paper_id as number) : null;
  } catch {
    return null;
  }
}

/** The callbacks waiting for the next batch, and whether one is being written. */
const waiting: Array<{ paperId: number; done(): void; failed(error: unknown): void }> = [];
let writing = false;

async function writeBatches(): Promise<void> {
  writing = true;
  try {
    while (waiting.length > 0) {
      const batch = waiting.splice(0, MOST_PER_BATCH);
      try {
        await pool.query('INSERT INTO anchor_callback (paper_id) SELECT unnest($1::bigint[])', [
          batch.map((callback) => callback.paperId),
        ]);
        for (const callback of batch) callback.done();
      } catch (error) {
        for (const callback of batch) callback.failed(error);
      }
    }
  } finally {
    writing = false;
  }
}

function batched(paperId: number): Promise<void> {
  return new Promise((resolve, reject) => {
    waiting.push({ paperId, done: resolve, failed: reject });
    if (!writing) void writeBatches();
  });
}

async function callback(req: IncomingMessage, res: ServerResponse, inBatches: boolean): Promise<void> {
  const paperId = await paperIdOf(req);
  if (paperId === null) return answer(res, 400, { error: 'The body must be JSON with a positive integer paper_id.' });
  if (inBatches) await batched(paperId);
  else await pool.query('INSERT INTO anchor_callback (paper_id) VALUES ($1)', [paperId]);
  answer(res, 200, { received: true });
}

const server = createServer((req, res) => {
  const work =
    req.method === 'POST' && req.url === '/receipt'
      ? receipt(req, res)
      : req.method === 'PUT' && req.url === '/callback'
        ? callback(req, res, false)
        : req.method === 'PUT' && req.url === '/callback-batched'
          ? callback(req, res, true)
          : Promise.resolve(answer(res, 404, { error: 'Not found.' }));
  work.catch((error: unknown) => {
    if (!res.headersSent) answer(res, 500, { error: error instanceof Error ? error.message : String(error) });
  });
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = server.address();
process.stdout.write(
  `READY ${JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` })}\n`,
);
process.on('SIGTERM', () => {
  void pool.end().finally(() => process.exit(0));
});
