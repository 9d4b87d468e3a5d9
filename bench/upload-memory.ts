// A 100 MB paper through the checker client into the sandbox running as its own process: the resident memory
// each side gains, and the client's throughput beside a raw undici upload of the same file (the anchor).
import { spawn } from 'node:child_process';
import { closeSync, createReadStream, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { CheckerClient } from '../src/checker/index.js';
import { ratio, root, scaled, type Row } from './lib.js';

const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? scaled(100, 10));

function vm(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(field));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024; // MB
}

export async function uploadMemoryBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'olti-bench-'));
  const file = join(dir, 'paper.txt');
  const fd = openSync(file, 'w');
  const block = Buffer.from('The quick brown fox writes a long essay about rivers and mountains. '.repeat(16_000));
  for (let written = 0; written < SIZE_MB * 1024 * 1024; written += block.length) writeSync(fd, block);
  closeSync(fd);
  const bytes = statSync(file).size;

  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'src/sandbox/cli.ts'),
      '--port',
      '0',
      '--max-upload-mb',
      String(SIZE_MB + 20),
      '--delay-ms',
      '600000',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (http:\/\/\S+)/);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the sandbox settle after start
    const sandboxStart = vm(child.pid!, 'VmRSS');
    const sandboxPeakAtStart = vm(child.pid!, 'VmHWM');
    const client = new CheckerClient({
      baseUrl: url,
      username: 'demo@example.edu',
      password: 'demo-password',
      timeoutMs: 120_000,
    });
    const folderId = await client.createFolder('classroom', `bench ${Date.now()}`, {
      excludeReferences: false,
      excludeQuotes: false,
      excludeSmallSources: false,
      excludeThresholdWords: 0,
      excludedPhrases: [],
      grammarCheck: false,
      databases: { studentPapers: true, publications: true, internet: true, institutionRepository: true },
    });
    const token = await client.token();

    // Anchor: the same file as a raw streamed multipart POST with undici.
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
    let started = performance.now();
    const anchor = await request(`${url}/files/myFolder/${folderId}/singleFile`, {
      method: 'POST',
      body: Readable.from(raw()),
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + bytes + tail.length),
      },
    });
    await anchor.body.text();
    const anchorSeconds = (performance.now() - started) / 1000;

    const clientBefore = process.memoryUsage().rss / 1024 / 1024;
    let clientPeak = clientBefore;
    const sampler = setInterval(() => (clientPeak = Math.max(clientPeak, process.memoryUsage().rss / 1024 / 1024)), 20);
    started = performance.now();
    await client.upload({
      family: 'classroom',
      folderId,
      filePath: file,
      fileName: 'paper.txt',
      authorName: 'Bench',
      title: 'Bench',
      documentType: 'Assignment',
      plagiarismCheck: true,
      grammarCheck: false,
      language: 'English',
    });
    const clientSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const sandboxPeak = vm(child.pid!, 'VmHWM');
    const mb = bytes / 1024 / 1024;
    return [
      {
        what: `${mb.toFixed(0)} MB upload, checker client → sandbox (own process)`,
        figure: `${(mb / clientSeconds).toFixed(0)} MB/s`,
        anchor: `${(mb / anchorSeconds).toFixed(0)} MB/s raw undici`,
        ratio: ratio(anchorSeconds / clientSeconds),
        goal: '≥ 0.7',
      },
      {
        what: 'client RSS growth during the upload',
        figure: `${(clientPeak - clientBefore).toFixed(1)} MB`,
        goal: '< 64 MB',
      },
      {
        what: 'sandbox RSS at start / peak over both uploads',
        figure: `${sandboxStart.toFixed(0)} MB / ${sandboxPeak.toFixed(0)} MB`,
      },
      {
        what: 'sandbox peak RSS growth over both uploads',
        figure: `${(sandboxPeak - sandboxPeakAtStart).toFixed(1)} MB`,
        goal: '< 64 MB',
      },
    ];
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await uploadMemoryBench())
    console.log(`${row.what}: ${row.figure}${row.anchor ? ` (anchor ${row.anchor}, ratio ${row.ratio})` : ''}`);
}
