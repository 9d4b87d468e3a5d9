// The server recipe of docs/operations.md, run: Debian's nginx with deploy/nginx/originality-lti.conf (TLS, the
// forwarded headers, the body limit, the timeouts) in front of two web processes and a worker on PostgreSQL, each
// started as deploy/systemd/'s units start them (`node dist/main.js`, NODE_ENV=production, ROLE, HOST=127.0.0.1,
// PORT). Through it: an instructor's and a student's launch, a paper whose score comes back by the service's
// callback through nginx (the poller set to an hour, so nothing else can bring it), a 100 MB upload and one a byte
// too large. The site file is used as it is in the repository, but for the addresses and the certificate, each
// replaced exactly once (REPLACED below). The units are checked with `systemd-analyze verify` where it exists.
//
// nginx: the one NGINX_PATH names (npm test installs Debian's package where it runs as root, scripts/setup/nginx.mjs).
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Agent, setGlobalDispatcher } from 'undici';
import { parseConfig } from '../../src/config/config.js';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { DEMO_USER, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { createTestDatabase, severalProcessesSkip, type TestDatabase } from '../support/db.js';
import { registerWithCli, servePlatform, type ServedPlatform } from '../support/platform.js';
import { projectRoot, startToolProcess, type ToolProcess } from '../support/process.js';
import { freePort } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const SITE = join(projectRoot, 'deploy', 'nginx', 'originality-lti.conf');
const UNITS = join(projectRoot, 'deploy', 'systemd');
const MB = 1024 * 1024;
const nginxPath = process.env.NGINX_PATH ?? ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find(existsSync);

const dir = mkdtempSync(join(tmpdir(), 'olti-nginx-'));
let nginx: ChildProcess | undefined;
let testDatabase: TestDatabase | undefined;
let sandbox: Sandbox | undefined;
let lms: ServedPlatform | undefined;
let database: Database | undefined;
const processes: ToolProcess[] = [];
let publicUrl = '';
let httpPort = 0;
let course: TestCourse;
let web: ToolProcess[] = [];
let worker: ToolProcess;

/** What the test did, in the words docs/operations.md shows. */
const say = (line: string) => process.stdout.write(`# ${line}\n`);

/** The site file with this machine's addresses and a certificate made for the test: each replaced exactly once. */
function siteFor(ports: { https: number; http: number; web: [number, number] }): string {
  const REPLACED: Array<[string, string]> = [
    ['server 127.0.0.1:3001;', `server 127.0.0.1:${ports.web[0]};`],
    ['server 127.0.0.1:3002;', `server 127.0.0.1:${ports.web[1]};`],
    ['    listen 80;\n', `    listen 127.0.0.1:${ports.http};\n`],
    ['    listen [::]:80;\n', ''],
    ['    listen 443 ssl http2;\n', `    listen 127.0.0.1:${ports.https} ssl http2;\n`],
    ['    listen [::]:443 ssl http2;\n', ''],
    ['/etc/letsencrypt/live/lti.example.edu/fullchain.pem', join(dir, 'cert.pem')],
    ['/etc/letsencrypt/live/lti.example.edu/privkey.pem', join(dir, 'key.pem')],
    ['/var/log/nginx/access.log originality_lti;', `${join(dir, 'access.log')} originality_lti;`],
  ];
  let site = readFileSync(SITE, 'utf8');
  for (const [from, to] of REPLACED) {
    assert.equal(site.split(from).length - 1, 1, `${SITE} should hold ${JSON.stringify(from)} once`);
    site = site.replace(from, to);
  }
  return site;
}

/** nginx.conf as Debian's, reduced to what a test folder needs (its own pid, logs and temporary files). */
function mainConfig(): string {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return `${asRoot ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
daemon off;
events { worker_connections 256; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/originality-lti.conf;
}
`;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const skip =
  severalProcessesSkip || (nginxPath ? false : 'needs nginx (npm test installs it: scripts/setup/nginx.mjs)');

before(async () => {
  if (skip) return;
  const ports = {
    https: await freePort(),
    http: await freePort(),
    web: [await freePort(), await freePort()] as [number, number],
  };
  publicUrl = `https://127.0.0.1:${ports.https}`;
  httpPort = ports.http;
  const cert = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(cert.status, 0, `openssl could not make the test's certificate: ${cert.stderr}`);
  // The test's own requests (and the sandbox's callbacks, made from this process) trust that certificate.
  setGlobalDispatcher(new Agent({ connect: { ca: readFileSync(join(dir, 'cert.pem')) } }));

  writeFileSync(join(dir, 'originality-lti.conf'), siteFor(ports));
  writeFileSync(join(dir, 'nginx.conf'), mainConfig());
  const checked = spawnSync(
    nginxPath!,
    ['-t', '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(checked.status, 0, checked.stderr);
  say(`nginx -t: ${checked.stderr.trim().split('\n').at(-1)!.replace(dir, '<test folder>')}`);
  nginx = spawn(nginxPath!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: 'ignore',
    detached: true,
  });
  for (let i = 0; i < 100 && !(await answers(ports.https)); i += 1) await new Promise((r) => setTimeout(r, 100));

  testDatabase = await createTestDatabase();
  const secret = randomBytes(18).toString('hex');
  sandbox = await startSandbox({ delayMs: 300, callbackUrl: `${publicUrl}/checker/callback/${secret}` });
  // /etc/originality-lti/env as deploy/env.example has it, for this machine.
  const env = {
    NODE_ENV: 'production',
    PUBLIC_URL: publicUrl,
    DATABASE_URL: testDatabase.url!,
    DATA_DIR: testDatabase.dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    CALLBACK_SECRET: secret,
    CHECKER_URL: sandbox.url,
    CHECKER_USERNAME: DEMO_USER.email,
    CHECKER_PASSWORD: DEMO_USER.password,
    SHUTDOWN_TIMEOUT_MS: '20000',
    TRUSTED_PROXIES: '127.0.0.1/32,::1/128',
    // The test's LMS runs on this machine; a school's names its own network, or none.
    PLATFORM_PRIVATE_NETWORKS: '127.0.0.0/8',
    // Only the callback can bring a result within the test.
    POLL_SCHEDULE_SECONDS: '3600',
    JOB_POLLING_SECONDS: '0.5',
  };
  const unit = (role: string, port: number) => ({ ...env, ROLE: role, HOST: '127.0.0.1', PORT: String(port) });
  web = await Promise.all(
    ports.web.map((port) => startToolProcess(unit('web', port), { entry: 'built', timeoutMs: 120_000 })),
  );
  worker = await startToolProcess(unit('worker', await freePort()), { entry: 'built', timeoutMs: 120_000 });
  processes.push(...web, worker);
  lms = await servePlatform(publicUrl, { clientId: 'behind-nginx' });
  await registerWithCli(env, lms.platform.registration());
  course = await openCourse({ url: publicUrl }, { clientId: 'behind-nginx', lms });
  database = await openDatabase({
    url: testDatabase.url,
    dataDir: testDatabase.dataDir,
    poolSize: 2,
    embedded: 'serve',
  });
});

after(async () => {
  for (const child of processes) if (child.child.exitCode === null) child.child.kill('SIGKILL');
  if (nginx?.pid && nginx.exitCode === null) process.kill(-nginx.pid, 'SIGTERM');
  await database?.close();
  await lms?.close();
  await sandbox?.close();
  await testDatabase?.drop();
  rmSync(dir, { recursive: true, force: true });
});

test(
  'a launch through nginx lands on PUBLIC_URL; the forwarded headers mark every request as from elsewhere',
  { skip },
  async () => {
    const student = 'student-1';
    lms!.platform.addUser({ id: student, name: 'Student One', email: 's1@example.edu', roles: ROLES.learner });
    const landed = await launch(lms!.platform, { userId: student, resourceLinkId: 'essay' });
    assert.equal(landed.status, 200, landed.body.slice(0, 500));
    assert.equal(new URL(landed.url).origin, publicUrl, 'the launch left PUBLIC_URL');
    for (const process of web)
      assert.doesNotMatch(landed.body, new RegExp(`:${process.port}/`), "a web process's own port in a page");
    say(
      `launch through nginx: ${landed.status} at ${new URL(landed.url).pathname.replace(/[0-9a-f-]{36}/, '<id>')} on PUBLIC_URL`,
    );
    // /metrics answers this machine's scrapers only: through the proxy (X-Forwarded-For) it is someone elsewhere.
    const viaProxy = await fetch(`${publicUrl}/metrics`);
    assert.equal(viaProxy.status, 403);
    assert.equal((await fetch(`http://127.0.0.1:${web[0]!.port}/metrics`)).status, 200);
    say('/metrics through nginx: 403 (forwarded, so from elsewhere); on the web process itself: 200');
    // Plain http is sent to https.
    const plain = await fetch(`http://127.0.0.1:${httpPort}/lti/keys`, { redirect: 'manual' });
    assert.equal(plain.status, 301);
    assert.equal(plain.headers.get('location'), 'https://127.0.0.1/lti/keys');
    say('http://…/lti/keys: 301 to https');
    // The page's address carries its session key; nginx's access log writes the path alone, no query string.
    const page = await fetch(`${landed.url}${landed.url.includes('?') ? '&' : '?'}ltik=${landed.ltik}`);
    await page.arrayBuffer();
    await eventually(
      () =>
        existsSync(join(dir, 'access.log')) &&
        readFileSync(join(dir, 'access.log'), 'utf8').includes(new URL(landed.url).pathname),
      "the page's request did not reach nginx's access log",
    );
    const log = readFileSync(join(dir, 'access.log'), 'utf8');
    assert.ok(landed.ltik && !log.includes(landed.ltik), 'a session key is in the access log');
    assert.doesNotMatch(log, /ltik=|\?/, 'a query string is in the access log');
    say(`nginx's access log: ${log.trim().split('\n').length} lines, no query string and no session key`);
  },
);

test('a paper sent through nginx is scored by the service calling back through nginx', { skip }, async () => {
  const started = Date.now();
  const submissionId = await course.submit('student-2', 'An essay on the reverse proxy, written for the test.');
  let state = '';
  while (Date.now() - started < 90_000) {
    const row = await database!.db
      .selectFrom('submission')
      .select('state')
      .where('id', '=', submissionId)
      .executeTakeFirst();
    state = row?.state ?? '';
    if (state === 'graded') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.equal(state, 'graded', 'the score did not reach the gradebook');
  let accepted = 0;
  for (const process of web) {
    const metrics = await (await fetch(`http://127.0.0.1:${process.port}/metrics`)).text();
    accepted += Number(/^originality_callbacks_total\{outcome="accepted"\} (\d+)/m.exec(metrics)?.[1] ?? 0);
  }
  assert.ok(accepted >= 1, 'no callback reached a web process');
  say(
    `paper through nginx, scored by the callback through nginx and posted to the gradebook: ${state} after ${((Date.now() - started) / 1000).toFixed(1)} s (${accepted} callback accepted)`,
  );
});

test(
  "a 100 MB paper goes through nginx whole, and one a byte larger gets the tool's own 413 sentence",
  { skip },
  async () => {
    // The worker is stopped first: the test is about the way in, not about sending 100 MB on to the service.
    assert.equal(await worker.stop(), 0);
    const limit = 100 * MB;
    let started = Date.now();
    const whole = await course.trySubmit('student-3', 'a'.repeat(limit - 1) + '\n');
    assert.equal(whole.status, 201, whole.body.slice(0, 500));
    const row = await database!.db
      .selectFrom('submission')
      .select('file_size')
      .where('id', '=', whole.submissionId!)
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.file_size), limit);
    say(
      `100 MB upload through nginx: ${whole.status}, ${Number(row.file_size)} bytes kept, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    started = Date.now();
    const over = await course.trySubmit('student-4', 'a'.repeat(limit) + '\n');
    assert.equal(over.status, 413, over.body.slice(0, 500));
    const sentence = (JSON.parse(over.body) as { error: string }).error;
    assert.match(sentence, /100 MB/);
    say(
      `100 MB + 1 byte through nginx: ${over.status} "${sentence}" in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  },
);

test("nginx's waits are never shorter than the tool's own", { skip: nginxPath ? false : 'needs nginx' }, () => {
  const site = readFileSync(SITE, 'utf8');
  const seconds = (directive: string) => Number(new RegExp(`^\\s*${directive} (\\d+)s;`, 'm').exec(site)?.[1]);
  const tool = parseConfig({});
  // An upload that the tool still allows is never cut by nginx first.
  assert.ok(seconds('proxy_read_timeout') * 1000 > tool.http.requestTimeoutMs);
  assert.ok(seconds('proxy_send_timeout') * 1000 > tool.http.requestTimeoutMs);
  assert.ok(seconds('client_body_timeout') * 1000 > tool.http.uploadIdleTimeoutMs);
  // nginx lets an idle connection to the tool go before the tool closes it.
  assert.ok(seconds('keepalive_timeout') * 1000 < tool.http.keepAliveTimeoutMs);
  assert.match(site, /client_max_body_size 101m;/);
});

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0;
test(
  'the systemd units pass systemd-analyze verify',
  { skip: hasSystemdAnalyze ? false : 'systemd-analyze is not installed here' },
  () => {
    const units = mkdtempSync(join(tmpdir(), 'olti-units-'));
    try {
      const instances = ['originality-lti-web@3001.service', 'originality-lti-worker@3101.service'];
      for (const template of ['originality-lti-web@.service', 'originality-lti-worker@.service']) {
        copyFileSync(join(UNITS, template), join(units, template));
      }
      symlinkSync('originality-lti-web@.service', join(units, instances[0]!));
      symlinkSync('originality-lti-worker@.service', join(units, instances[1]!));
      const verified = spawnSync('systemd-analyze', ['verify', ...instances.map((name) => join(units, name))], {
        encoding: 'utf8',
      });
      assert.equal(verified.status, 0, verified.stderr);
      assert.equal(verified.stderr.trim(), '', verified.stderr);
      say(`systemd-analyze verify ${instances.join(' ')}: no complaint`);
    } finally {
      rmSync(units, { recursive: true, force: true });
    }
  },
);
