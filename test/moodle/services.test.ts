// The Asset Processor's services in a real Moodle (moodle/ltiservice_olti under mod/lti/services.php), asked as the
// tool asks them: a token from Moodle's own mod/lti/token.php with the tool's client assertion, then the asset's
// download and the report's post. Each refusal is held to its status: no token, a token without the scope, another
// tool type's token, the chosen type's token once another type is chosen, another course's asset, a guessed id, an
// older report. Runs in the real-Moodle tier (MOODLE_TIER=1) where ../shared/moodle (or MOODLE_KIT) holds the
// Moodle kit and its site answers; says so and skips otherwise. The test makes its own courses and tool types, and holds /tmp/moodle-olti-config.lock while it
// has another tool type chosen, so that the real-Moodle tier never runs against its choice.
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import { projectRoot } from '../support/process.js';

const run = promisify(execFile);
const KIT = resolve(process.env.MOODLE_KIT ?? join(projectRoot, '..', 'shared', 'moodle'));
const MOODLE_HOME = process.env.MOODLE_HOME ?? join(homedir(), '.moodle-kit');
const MOODLE_DIR = join(MOODLE_HOME, 'moodle');
const MOODLE_URL = process.env.MOODLE_URL ?? `http://localhost:${process.env.MOODLE_PORT ?? '8081'}`;
const FIXTURE = join(projectRoot, 'test', 'moodle', 'php-b', 'services-fixture.php');
const PLUGINS = [
  { from: join(projectRoot, 'moodle', 'plagiarism_olti'), to: join(MOODLE_DIR, 'plagiarism', 'olti') },
  { from: join(projectRoot, 'moodle', 'ltiservice_olti'), to: join(MOODLE_DIR, 'mod', 'lti', 'service', 'olti') },
];
const CONFIG_LOCK = '/tmp/moodle-olti-config.lock';
const ASSET_READ = 'https://purl.imsglobal.org/spec/lti-ap/scope/asset.readonly';
const REPORT = 'https://purl.imsglobal.org/spec/lti-ap/scope/report';
const AGS_SCORE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';
/** Larger than PHP-FPM's memory limit on this site (../shared/moodle's pool: 512M). */
const LARGE_MB = 600;

async function moodleAnswers(): Promise<boolean> {
  try {
    const answer = await fetch(`${MOODLE_URL}/login/index.php`, { signal: AbortSignal.timeout(5000) });
    return answer.status === 200;
  } catch {
    return false;
  }
}

const skipReason = !existsSync(KIT)
  ? `No Moodle kit at ${KIT} (../shared/moodle, or MOODLE_KIT): the services are tested only where a real Moodle is.`
  : process.env.MOODLE_TIER !== '1'
    ? 'the services are tested in the real-Moodle tier, with MOODLE_TIER=1 (bash .ci/run runs it where ../shared/moodle exists)'
    : !existsSync(join(MOODLE_DIR, 'config.php'))
      ? `The Moodle kit is not installed at ${MOODLE_DIR}: run bash ${KIT}/up.sh first.`
      : !PLUGINS.every((plugin) => existsSync(join(plugin.from, 'version.php')))
        ? 'The plugins are not both in moodle/ (plagiarism_olti and ltiservice_olti).'
        : (await moodleAnswers())
          ? undefined
          : `The Moodle at ${MOODLE_URL} does not answer: run bash ${KIT}/up.sh first.`;
if (skipReason) process.stdout.write(`# ${skipReason}\n`);

interface Made {
  wwwroot: string;
  assetA: { uuid: string; submissionid: number; courseid: number; size: number; sha256: string };
  assetB: { uuid: string; submissionid: number; courseid: number; size: number; sha256: string };
  chosen: { id: number; clientid: string };
  other: { id: number; clientid: string };
}

const php = async (...args: string[]) =>
  (await run('php', [FIXTURE, ...args], { env: { ...process.env, MOODLE_DIR }, maxBuffer: 1 << 20, timeout: 120_000 }))
    .stdout;

/** Holds the lock on the bridge's chosen tool type until released. */
async function holdConfigLock(): Promise<() => Promise<void>> {
  const holder = spawn('flock', [CONFIG_LOCK, '-c', 'echo held; exec cat'], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolveHeld, reject) => {
    holder.stdout.once('data', () => resolveHeld());
    holder.once('exit', (code) => reject(new Error(`flock ended with ${code}`)));
  });
  return () =>
    new Promise<void>((resolveGone) => {
      holder.once('exit', () => resolveGone());
      holder.stdin.end();
    });
}

describe('the Asset Processor services in a real Moodle', { skip: skipReason }, () => {
  let made: Made;
  let previousType: string | null = null;
  let release: (() => Promise<void>) | undefined;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  const started = Date.now();
  const step = (name: string) => process.stdout.write(`# ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

  before(async () => {
    for (const plugin of PLUGINS) {
      rmSync(plugin.to, { recursive: true, force: true });
      cpSync(plugin.from, plugin.to, { recursive: true });
    }
    await run(
      'flock',
      ['/tmp/moodle-upgrade.lock', 'php', join(MOODLE_DIR, 'admin/cli/upgrade.php'), '--non-interactive'],
      { maxBuffer: 8 << 20, timeout: 600_000 },
    );
    step('plugins installed');
    const keys = await generateKeyPair('RS256', { extractable: true });
    privateKey = keys.privateKey;
    const folder = mkdtempSync(join(tmpdir(), 'olti-services-'));
    writeFileSync(join(folder, 'public.pem'), await exportSPKI(keys.publicKey));
    made = JSON.parse(await php('setup', join(folder, 'public.pem'))) as Made;
    rmSync(folder, { recursive: true, force: true });
    release = await holdConfigLock();
    previousType = (JSON.parse(await php('choose', String(made.chosen.id))) as { old: string | null }).old;
    step('courses, tool types and assets made');
  });
  after(async () => {
    if (made) {
      await php('choose', previousType ?? '0');
      await php('teardown', JSON.stringify(made));
    }
    await release?.();
  });

  const tokenAnswer = async (clientId: string, scopes: string[]) => {
    const tokenUrl = `${made.wwwroot}/mod/lti/token.php`;
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(tokenUrl)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(randomUUID())
      .sign(privateKey);
    const answer = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
        scope: scopes.join(' '),
      }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, string> };
  };
  const token = async (clientId: string, scopes: string[]) => {
    const answer = await tokenAnswer(clientId, scopes);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.access_token!;
  };

  const assetUrl = (courseId: number, uuid: string) =>
    `${made.wwwroot}/mod/lti/services.php/${courseId}/olti/assets/${uuid}`;
  const reportUrl = (courseId: number, submissionId: number) =>
    `${made.wwwroot}/mod/lti/services.php/${courseId}/olti/reports/${submissionId}`;
  const download = (url: string, bearer?: string) =>
    fetch(url, { headers: { accept: '*/*', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) } });
  const post = (url: string, body: unknown, bearer?: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const report = (timestamp: string, extra: Record<string, unknown> = {}) => ({
    assetId: made.assetA.uuid,
    type: 'originality',
    timestamp,
    processingProgress: 'Processed',
    title: 'Originality',
    result: '42%',
    scoreGiven: 42,
    scoreMaximum: 100,
    indicationColor: '#E67E22',
    indicationAlt: 'Similarity 42%: high.',
    comment: 'Scored: similarity 42%.',
    priority: 3,
    visibleToOwner: true,
    ...extra,
  });

  test('mod/lti/token.php grants the Asset Processor scopes to the chosen tool type and to no other', async () => {
    const granted = await tokenAnswer(made.chosen.clientid, [ASSET_READ, REPORT]);
    assert.equal(granted.status, 200);
    assert.deepEqual(granted.body.scope!.split(' ').sort(), [ASSET_READ, REPORT].sort());
    const other = await tokenAnswer(made.other.clientid, [ASSET_READ, REPORT]);
    assert.deepEqual(other, { status: 400, body: { error: 'invalid_scope' } });
    step('tokens');
  });

  test('the asset is streamed whole to the chosen type, and refused to every other asker', async () => {
    const read = await token(made.chosen.clientid, [ASSET_READ]);
    const answer = await download(assetUrl(made.assetA.courseid, made.assetA.uuid), read);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'application/pdf');
    const bytes = Buffer.from(await answer.arrayBuffer());
    assert.equal(bytes.length, made.assetA.size);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), made.assetA.sha256);

    assert.equal((await download(assetUrl(made.assetA.courseid, made.assetA.uuid))).status, 401, 'no token');
    assert.equal((await download(assetUrl(made.assetA.courseid, made.assetA.uuid), 'guessed')).status, 401);
    const reportOnly = await token(made.chosen.clientid, [REPORT]);
    assert.equal((await download(assetUrl(made.assetA.courseid, made.assetA.uuid), reportOnly)).status, 401);
    const otherType = await token(made.other.clientid, [AGS_SCORE]);
    assert.equal((await download(assetUrl(made.assetA.courseid, made.assetA.uuid), otherType)).status, 401);
    // Another course's asset, asked under this course, and an asset id nobody was told.
    const elsewhere = await download(assetUrl(made.assetA.courseid, made.assetB.uuid), read);
    assert.equal(elsewhere.status, 404);
    assert.match(((await elsewhere.json()) as { reason: string }).reason, /No such asset in this course/);
    assert.equal((await download(assetUrl(made.assetA.courseid, randomUUID()), read)).status, 404);
    assert.equal((await download(assetUrl(made.assetA.courseid, '1'), read)).status, 404);
    assert.equal((await download(assetUrl(999_999_999, made.assetA.uuid), read)).status, 404);
    step('asset service');
  });

  test("a copy larger than PHP's memory limit is streamed whole: never read into memory", async () => {
    const large = JSON.parse(await php('large', JSON.stringify(made), String(LARGE_MB))) as {
      uuid: string;
      size: number;
      sha256: string;
    };
    const answer = await download(
      assetUrl(made.assetA.courseid, large.uuid),
      await token(made.chosen.clientid, [ASSET_READ]),
    );
    assert.equal(answer.status, 200);
    assert.equal(Number(answer.headers.get('content-length')), large.size);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of answer.body!) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    assert.equal(bytes, large.size);
    assert.equal(hash.digest('hex'), large.sha256);
    step(`a ${LARGE_MB} MB asset`);
  });

  test('a report is kept once per type, a later one replaces it, and an older or malformed one is refused', async () => {
    const bearer = await token(made.chosen.clientid, [REPORT]);
    const url = reportUrl(made.assetA.courseid, made.assetA.submissionid);
    const first = report('2026-12-02T03:00:00.000Z');
    assert.equal((await post(url, first, bearer)).status, 200);
    assert.equal((await post(url, first, bearer)).status, 200, 'the same report again, its answer lost');
    assert.equal((await post(url, report('2026-12-02T03:00:00.000Z', { result: '43%' }), bearer)).status, 409);
    assert.equal((await post(url, report('2026-12-02T02:59:59.999Z', { result: '1%' }), bearer)).status, 409);
    const later = report('2026-12-02T03:00:01.250+00:00', { result: '57%', scoreGiven: 57, priority: 5 });
    assert.equal((await post(url, later, bearer)).status, 200);
    const ai = report('2026-12-02T03:00:00.000Z', { type: 'ai', result: '12%', scoreGiven: 12 });
    assert.equal((await post(url, ai, bearer)).status, 200);

    assert.equal((await post(url, later)).status, 401, 'no token');
    assert.equal((await post(url, later, await token(made.chosen.clientid, [ASSET_READ]))).status, 401);
    assert.equal((await post(url, { ...later, assetId: made.assetB.uuid }, bearer)).status, 404);
    assert.equal((await post(url, { ...later, assetId: randomUUID() }, bearer)).status, 404);
    const otherSubmission = reportUrl(made.assetA.courseid, made.assetB.submissionid);
    assert.equal((await post(otherSubmission, later, bearer)).status, 404);
    assert.equal((await post(url, '{"assetId":', bearer)).status, 400);
    assert.equal((await post(url, { ...later, timestamp: 'yesterday' }, bearer)).status, 400);
    assert.equal((await post(url, { ...later, processingProgress: 'Done' }, bearer)).status, 400);
    assert.equal((await post(url, { ...later, comment: 'x'.repeat(70_000) }, bearer)).status, 413);

    const kept = JSON.parse(await php('reports', made.assetA.uuid)) as Record<string, string>[];
    assert.deepEqual(
      kept.map((row) => [row.type, row.result, Number(row.scoregiven), Number(row.priority), row.visibletoowner]),
      [
        ['ai', '12%', 12, 3, '1'],
        ['originality', '57%', 57, 5, '1'],
      ],
    );
    step('report service');
  });

  test("a token issued before the check moved to another tool type is that type's no longer", async () => {
    const read = await token(made.chosen.clientid, [ASSET_READ]);
    await php('choose', String(made.other.id));
    const answer = await download(assetUrl(made.assetA.courseid, made.assetA.uuid), read);
    await php('choose', String(made.chosen.id));
    assert.equal(answer.status, 403);
    step('another type chosen');
  });
});
