// Settings from the environment: defaults for a fresh machine, and each bad value named.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

const dir = mkdtempSync(join(tmpdir(), 'olti-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a fresh machine: embedded database, localhost URL, a key generated once and reused', () => {
  const env = { DATA_DIR: join(dir, 'fresh') };
  const first = loadConfig(env);
  assert.equal(first.databaseUrl, null);
  assert.equal(first.publicUrl, 'http://localhost:3000');
  assert.equal(first.role, 'all');
  assert.equal(first.encryptionKeySource, 'generated');
  assert.equal(readFileSync(join(dir, 'fresh', 'encryption.key'), 'utf8').trim(), first.encryptionKey);
  const second = loadConfig(env);
  assert.equal(second.encryptionKeySource, 'data-dir');
  assert.equal(second.encryptionKey, first.encryptionKey);
});

test('PUBLIC_URL loses its trailing slash; empty variables count as unset', () => {
  const config = loadConfig({ DATA_DIR: join(dir, 'a'), PUBLIC_URL: 'https://lti.example.edu/tools/', PORT: '', ROLE: '' });
  assert.equal(config.publicUrl, 'https://lti.example.edu/tools');
  assert.equal(config.port, 3000);
  assert.equal(config.role, 'all');
});

test('production takes its key from the environment and never writes one', () => {
  const config = loadConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://lti.example.edu',
    DATABASE_URL: 'postgres://tool@db.internal:5432/originality',
    ENCRYPTION_KEY: 'p'.repeat(64),
    CHECKER_URL: 'https://checker.example.com',
    CHECKER_USERNAME: 'lti@example.edu',
    CHECKER_PASSWORD: 'service-password',
    CALLBACK_SECRET: 'c'.repeat(32),
    ROLE: 'worker',
    DATA_DIR: join(dir, 'prod'),
  });
  assert.equal(config.production, true);
  assert.equal(config.encryptionKeySource, 'environment');
  assert.equal(config.role, 'worker');
  assert.equal(config.callbackSecret, 'c'.repeat(32));
  assert.deepEqual(config.checker, { url: 'https://checker.example.com', username: 'lti@example.edu', password: 'service-password' });
});

test('outside production the callback secret is generated once; the poll schedule has a sane default', () => {
  const first = loadConfig({ DATA_DIR: join(dir, 'cb') });
  assert.match(first.callbackSecret, /^[0-9a-f]{48}$/);
  assert.equal(loadConfig({ DATA_DIR: join(dir, 'cb') }).callbackSecret, first.callbackSecret);
  assert.deepEqual(first.pollScheduleSeconds, [60, 120, 300, 600, 1800]);
  assert.deepEqual(loadConfig({ DATA_DIR: join(dir, 'cb'), POLL_SCHEDULE_SECONDS: '1,2' }).pollScheduleSeconds, [1, 2]);
});

const refusals: Array<[string, Record<string, string>, RegExp]> = [
  ['DATABASE_URL', { DATABASE_URL: 'http://db/x' }, /must be a URL like postgres:/],
  ['ENCRYPTION_KEY', { ENCRYPTION_KEY: 'short' }, /at least 32 characters/],
  ['PUBLIC_URL', { PUBLIC_URL: 'lti.example.edu' }, /absolute URL/],
  ['PUBLIC_URL', { PUBLIC_URL: 'https://lti.example.edu/?a=1' }, /query string/],
  ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE/],
  ['LOG_LEVEL', { LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ['DATABASE_URL', { ROLE: 'web' }, /required with ROLE=web/],
  ['CHECKER_URL', { ROLE: 'worker', DATABASE_URL: 'postgres://x@db/x' }, /required with ROLE=worker: separate processes must share one checking service/],
  ['PUBLIC_URL', { NODE_ENV: 'production', ENCRYPTION_KEY: 'k'.repeat(40) }, /required in production/],
  ['CHECKER_PASSWORD', { CHECKER_URL: 'https://checker.example.com', CHECKER_USERNAME: 'a@b.c' }, /required when CHECKER_URL is set/],
  ['CALLBACK_SECRET', { CALLBACK_SECRET: 'short' }, /24 to 128/],
  ['POLL_SCHEDULE_SECONDS', { POLL_SCHEDULE_SECONDS: '60,soon' }, /comma-separated/],
  ['PLATFORM_PRIVATE_NETWORKS', { PLATFORM_PRIVATE_NETWORKS: '10.0.0.0' }, /CIDR form/],
  ['PLATFORM_PRIVATE_NETWORKS', { PLATFORM_PRIVATE_NETWORKS: '10.0.0.0/33' }, /CIDR form/],
  ['PLATFORM_PRIVATE_NETWORKS', { PLATFORM_PRIVATE_NETWORKS: 'moodle.school.edu/24' }, /CIDR form/],
];
for (const [variable, env, detail] of refusals) {
  test(`refuses a bad ${variable} (${JSON.stringify(env)}) and names it`, () => {
    assert.throws(
      () => loadConfig({ DATA_DIR: join(dir, 'bad'), ...env }),
      (error: unknown) => error instanceof ConfigError && error.variable === variable && detail.test(error.message),
    );
  });
}
