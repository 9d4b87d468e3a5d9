// A 100 MB paper through the tool as it runs at scale: a web process (ROLE=web) receives it into PostgreSQL, a worker
// process (ROLE=worker) reads it back from there and sends it to the checking service (the sandbox, in this
// process). The resident memory each process gains while it handles the file (sampled from /proc every 20 ms), the
// receipt's and the send's throughput, the send beside a raw undici upload of the same bytes from disk to the same
// sandbox (the anchor), and what /metrics says of the received files after the receipt and after the send.
import { closeSync, createReadStream, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { CheckerClient } from '../src/checker/index.js';
import { DEMO_USER } from '../src/sandbox/index.js';
import { ratio, scaled, sleep, type Row } from './lib.js';
import { startStack, type Stack } from './stack.js';

const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? scaled(100, 10));
/** Within the assignment's limit of as many MB (maxFileMb, in MiB): a little under it, multipart aside. */
const SIZE_BYTES = SIZE_MB * 1024 * 1024 - 4096;
const MB = 1024 * 1024;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS'));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024;
}

/** A process's resident memory from now on: what it was at the start and the most it reached. */
function sampleRss(pid: number): () => { before: number; peak: number } {
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  return () => {
    clearInterval(timer);
    peak = Math.max(peak, rssMb(pid));
    return { before, peak };
  };
}

async function stateOf(stack: Stack, submissionId: string): Promise<string> {
  const { rows } = await stack.pool!.query<{ state: string }>('SELECT state FROM submission WHERE id = $1', [
    submissionId,
  ]);
  return rows[0]?.state ?? 'gone';
}

async function sent(stack: Stack, submissionId: string, timeoutMs = 600_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(100)) {
    const state = await stateOf(stack, submissionId);
    if (state === 'processing') return;
    if (state !== 'received' && state !== 'uploading') throw new Error(`the paper ended ${state}`);
    if (Date.now() > deadline) throw new Error('the paper was not sent in time');
  }
}

/** From the uploading event to the processing one: the worker's send, its lookups aside. */
async function sendSeconds(stack: Stack, submissionId: string): Promise<number> {
  const { rows } = await stack.pool!.query<{ seconds: number }>(
    `SELECT extract(epoch FROM max(at) FILTER (WHERE to_state = 'processing') - max(at) FILTER (WHERE to_state = 'uploading'))::float8 AS seconds
       FROM submission_event WHERE submission_id = $1`,
    [submissionId],
  );
  return rows[0]!.seconds;
}

/** The received-file gauges of the web process's /metrics. */
async function storeGauges(stack: Stack): Promise<string> {
  const text = await (await request(`${stack.url}/metrics`)).body.text();
  const value = (name: string) => Number(text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? Number.NaN);
  return `${value('originality_received_files')} files, ${(value('originality_received_file_bytes') / MB).toFixed(1)} MB (table on disk ${(value('originality_received_file_disk_bytes') / MB).toFixed(1)} MB)`;
}

export async function uploadMemoryBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'olti-bench-'));
  const file = join(dir, 'paper.txt');
  const fd = openSync(file, 'w');
  const block = Buffer.from('The quick brown fox writes a long essay about rivers and mountains. '.repeat(16_000));
  for (let written = 0; written < SIZE_BYTES; written += block.length)
    writeSync(fd, block, 0, Math.min(block.length, SIZE_BYTES - written));
  closeSync(fd);
  const bytes = statSync(file).size;
  const mb = bytes / MB;

  const stack = await startStack({
    backend: 'postgres',
    role: 'web',
    separateWorker: true,
    students: 2,
    sandbox: { delayMs: 600_000, maxUploadBytes: bytes + MB },
    env: { JOB_POLLING_SECONDS: '1' },
  });
  try {
    const ltiks = await stack.launchStudents(1, 2);
    // Both processes warmed up with a small paper first, sent before the large one comes.
    const warm = await stack.submit(ltiks[0]!, 'warm-up.txt', 'A short paper about rivers. '.repeat(100));
    await sent(stack, warm.submissionId);
    await sleep(1000);

    const content = readFileSync(file);
    const web = sampleRss(stack.tool.child.pid!);
    const worker = sampleRss(stack.worker!.child.pid!);
    let started = performance.now();
    const receipt = await stack.submit(ltiks[1]!, 'paper.txt', content);
    const receiptSeconds = (performance.now() - started) / 1000;
    const webMemory = web();
    const afterReceipt = await storeGauges(stack);
    await sent(stack, receipt.submissionId);
    const workerMemory = worker();
    const toolSendSeconds = await sendSeconds(stack, receipt.submissionId);
    await sleep(500);
    const afterSend = await storeGauges(stack);

    // Anchor: the same bytes as a raw streamed multipart POST from disk with undici, to the same sandbox.
    const client = new CheckerClient({
      baseUrl: stack.sandbox.url,
      username: DEMO_USER.email,
      password: DEMO_USER.password,
      timeoutMs: 120_000,
    });
    const folderId = await client.createFolder('classroom', `anchor ${Date.now()}`, {
      excludeReferences: false,
      excludeQuotes: false,
      excludeSmallSources: false,
      excludeThresholdWords: 0,
      excludedPhrases: [],
      grammarCheck: false,
      databases: { studentPapers: false, publications: false, internet: false, institutionRepository: false },
    });
    const token = await client.token();
    const boundary = 'benchboundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="authorName"\r\n\r\nA\r\n--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nT\r\n--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nAssignment\r\n--${boundary}\r\nContent-Disposition: form-data; name="plagiarismCheck"\r\n\r\nYES\r\n--${boundary}\r\nContent-Disposition: form-data; name="grammarCheck"\r\n\r\nNO\r\n--${boundary}\r\nContent-Disposition: form-data; name="language"\r\n\r\nEnglish\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="raw.txt"\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    async function* raw() {
      yield head;
      yield* createReadStream(file);
      yield tail;
    }
    started = performance.now();
    const anchor = await request(`${stack.sandbox.url}/files/myFolder/${folderId}/singleFile`, {
      method: 'POST',
      body: Readable.from(raw()),
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + bytes + tail.length),
      },
    });
    const anchorAnswer = await anchor.body.text();
    if (anchor.statusCode !== 200)
      throw new Error(`the anchor's upload answered ${anchor.statusCode}: ${anchorAnswer}`);
    const anchorSeconds = (performance.now() - started) / 1000;

    return [
      {
        what: `${mb.toFixed(0)} MB paper received by a web process into PostgreSQL (receipt)`,
        figure: `${(mb / receiptSeconds).toFixed(0)} MB/s`,
      },
      {
        what: 'web process RSS growth while receiving it',
        figure: `${(webMemory.peak - webMemory.before).toFixed(1)} MB (${webMemory.before.toFixed(0)} → ${webMemory.peak.toFixed(0)} MB)`,
        goal: '< 64 MB',
      },
      {
        what: `${mb.toFixed(0)} MB sent by a worker process from PostgreSQL to the sandbox, beside raw undici from disk`,
        figure: `${(mb / toolSendSeconds).toFixed(0)} MB/s`,
        anchor: `${(mb / anchorSeconds).toFixed(0)} MB/s raw undici`,
        ratio: ratio(anchorSeconds / toolSendSeconds),
        goal: '≥ 0.7',
      },
      {
        what: 'worker process RSS growth from the receipt until the paper was sent',
        figure: `${(workerMemory.peak - workerMemory.before).toFixed(1)} MB (${workerMemory.before.toFixed(0)} → ${workerMemory.peak.toFixed(0)} MB)`,
        goal: '< 64 MB',
      },
      {
        what: 'received files in /metrics after the receipt; after the send',
        figure: `${afterReceipt}; ${afterSend}`,
      },
    ];
  } finally {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await uploadMemoryBench())
    console.log(`${row.what}: ${row.figure}${row.anchor ? ` (anchor ${row.anchor}, ratio ${row.ratio})` : ''}`);
}
