// Settings from the environment: defaults for a fresh machine, and each bad value named.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import {
  ConfigError,
  embeddedDatabaseNote,
  loadConfig,
  nearMissWarnings,
  parseConfig,
  provideSecrets,
} from '../../src/config/config.js';

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

test('reading the environment writes nothing; providing the secrets is the step that keeps them in DATA_DIR', () => {
  const dataDir = join(dir, 'untouched');
  const settings = parseConfig({ DATA_DIR: dataDir });
  assert.equal(existsSync(dataDir), false, 'parseConfig created DATA_DIR');
  const config = provideSecrets(settings);
  assert.equal(readFileSync(join(dataDir, 'encryption.key'), 'utf8').trim(), config.encryptionKey);
  assert.equal(readFileSync(join(dataDir, 'callback.secret'), 'utf8').trim(), config.callbackSecret);
  assert.equal('givenSecrets' in config, false);
});

test('a refused secret is named, never shown', () => {
  for (const [variable, value] of [
    ['ENCRYPTION_KEY', 'hunter2-short'],
    ['CALLBACK_SECRET', 'hunter2!'],
    ['ADMIN_TOKEN', 'hunter2'],
    ['METRICS_TOKEN', 'hunter2 but short'],
  ] as const) {
    assert.throws(
      () => parseConfig({ DATA_DIR: join(dir, 'hidden'), [variable]: value }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.variable === variable &&
        !error.message.includes('hunter2') &&
        /not shown/.test(error.message),
    );
  }
});

test('PUBLIC_URL loses its trailing slash; empty variables count as unset', () => {
  const config = loadConfig({
    DATA_DIR: join(dir, 'a'),
    PUBLIC_URL: 'https://lti.example.edu/tools/',
    PORT: '',
    ROLE: '',
  });
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
  assert.deepEqual(config.checker, {
    url: 'https://checker.example.com',
    username: 'lti@example.edu',
    password: 'service-password',
  });
});

test('outside production the callback secret is generated once; the poll schedule has a sane default', () => {
  const first = loadConfig({ DATA_DIR: join(dir, 'cb') });
  assert.match(first.callbackSecret, /^[0-9a-f]{48}$/);
  assert.equal(loadConfig({ DATA_DIR: join(dir, 'cb') }).callbackSecret, first.callbackSecret);
  assert.deepEqual(first.pollScheduleSeconds, [60, 120, 300, 600, 1800]);
  assert.deepEqual(loadConfig({ DATA_DIR: join(dir, 'cb'), POLL_SCHEDULE_SECONDS: '1,2' }).pollScheduleSeconds, [1, 2]);
});

const refusals: Array<[string, Record<string, string>, RegExp]> = [
  [
    'DATABASE_URL',
    { DATABASE_URL: 'http://db/x' },
    /^DATABASE_URL must be a PostgreSQL address such as postgres:\/\/user:password@host:5432\/database; it is 11 characters long, not shown\.$/,
  ],
  ['ENCRYPTION_KEY', { ENCRYPTION_KEY: 'short' }, /at least 32 characters/],
  ['PUBLIC_URL', { PUBLIC_URL: 'lti.example.edu' }, /absolute URL/],
  ['PUBLIC_URL', { PUBLIC_URL: 'https://lti.example.edu/?a=1' }, /query string/],
  ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE/],
  ['LOG_LEVEL', { LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ['DATABASE_URL', { ROLE: 'web' }, /required with ROLE=web/],
  [
    'CHECKER_URL',
    { ROLE: 'worker', DATABASE_URL: 'postgres://x@db/x' },
    /required with ROLE=worker: separate processes must share one checking service/,
  ],
  ['PUBLIC_URL', { NODE_ENV: 'production', ENCRYPTION_KEY: 'k'.repeat(40) }, /required in production/],
  [
    'CHECKER_PASSWORD',
    { CHECKER_URL: 'https://checker.example.com', CHECKER_USERNAME: 'a@b.c' },
    /required when CHECKER_URL is set/,
  ],
  ['CALLBACK_SECRET', { CALLBACK_SECRET: 'short' }, /24 to 128/],
  [
    'POLL_SCHEDULE_SECONDS',
    { POLL_SCHEDULE_SECONDS: '60,soon' },
    /must be whole seconds, at least 1 each, separated by commas; it is 60,soon\./,
  ],
  ['PLATFORM_PRIVATE_NETWORKS', { PLATFORM_PRIVATE_NETWORKS: '10.0.0.0' }, /CIDR form/],
  ['PLATFORM_PRIVATE_NETWORKS', { PLATFORM_PRIVATE_NETWORKS: '10.0.0.0/33' }, /CIDR form/],
  ['PLATFORM_PRIVATE_NETWORKS', { PLATFORM_PRIVATE_NETWORKS: 'moodle.school.edu/24' }, /CIDR form/],
  ['METRICS_TOKEN', { METRICS_TOKEN: 'too-short' }, /24 to 256 printable characters/],
  ['METRICS_TOKEN', { METRICS_TOKEN: 'a token with spaces in it, long enough' }, /without spaces/],
];
for (const [variable, env, detail] of refusals) {
  test(`refuses a bad ${variable} (${JSON.stringify(env)}) and names it`, () => {
    assert.throws(
      () => loadConfig({ DATA_DIR: join(dir, 'bad'), ...env }),
      (error: unknown) => error instanceof ConfigError && error.variable === variable && detail.test(error.message),
    );
  });
}

test('METRICS_TOKEN: none by default (/metrics for this machine only)', () => {
  assert.equal(loadConfig({ DATA_DIR: join(dir, 'm') }).metricsToken, null);
  assert.equal(loadConfig({ DATA_DIR: join(dir, 'm'), METRICS_TOKEN: 'm'.repeat(32) }).metricsToken, 'm'.repeat(32));
});

test('safe defaults: loopback only, the dev platform for this machine, open registration only while private', () => {
  const local = loadConfig({ DATA_DIR: join(dir, 'safe') });
  assert.deepEqual(local.listenHosts, ['127.0.0.1', '::1']);
  assert.equal(local.loopbackOnly, true);
  assert.equal(local.devPlatform, 'loopback');
  assert.equal(local.dynamicRegistration, 'open');
  assert.deepEqual(
    local.platformPrivateNetworks,
    ['127.0.0.0/8', '::1/128'],
    'a private instance reaches the dev platform on loopback',
  );
  assert.deepEqual(loadConfig({ DATA_DIR: join(dir, 'safe'), HOST: 'localhost' }).listenHosts, ['127.0.0.1', '::1']);

  // Reachable from elsewhere: listening on the network, or reached through a proxy at a public name.
  const exposed = loadConfig({ DATA_DIR: join(dir, 'safe'), HOST: '0.0.0.0' });
  assert.deepEqual(exposed.listenHosts, ['0.0.0.0']);
  assert.equal(exposed.loopbackOnly, false);
  assert.equal(exposed.dynamicRegistration, 'approve');
  assert.equal(exposed.devPlatform, 'loopback');
  assert.deepEqual(
    exposed.platformPrivateNetworks,
    [],
    'a platform URL on loopback is refused once strangers can reach the tool',
  );
  assert.deepEqual(
    loadConfig({ DATA_DIR: join(dir, 'safe'), HOST: '0.0.0.0', PLATFORM_PRIVATE_NETWORKS: '10.20.0.0/16, fd00:1::/64' })
      .platformPrivateNetworks,
    ['10.20.0.0/16', 'fd00:1::/64'],
  );
  assert.deepEqual(
    loadConfig({ DATA_DIR: join(dir, 'safe'), PLATFORM_PRIVATE_NETWORKS: 'none' }).platformPrivateNetworks,
    [],
  );
  const proxied = loadConfig({ DATA_DIR: join(dir, 'safe'), HOST: '127.0.0.1', PUBLIC_URL: 'https://lti.example.edu' });
  assert.equal(proxied.loopbackOnly, false);
  assert.equal(proxied.dynamicRegistration, 'approve');
  assert.equal(
    loadConfig({ DATA_DIR: join(dir, 'safe'), HOST: '0.0.0.0', DYNAMIC_REGISTRATION: 'open' }).dynamicRegistration,
    'open',
  );

  assert.equal(loadConfig({ DATA_DIR: join(dir, 'safe'), DEV_PLATFORM: 'on' }).devPlatform, 'on');
  assert.equal(loadConfig({ DATA_DIR: join(dir, 'safe'), DEV_PLATFORM: 'off' }).devPlatform, 'off');
  const production = loadConfig({
    NODE_ENV: 'production',
    DEV_PLATFORM: 'on',
    PUBLIC_URL: 'https://lti.example.edu',
    DATABASE_URL: 'postgres://tool@db.internal:5432/originality',
    ENCRYPTION_KEY: 'p'.repeat(64),
    CHECKER_URL: 'https://checker.example.com',
    CHECKER_USERNAME: 'lti@example.edu',
    CHECKER_PASSWORD: 'service-password',
    CALLBACK_SECRET: 'c'.repeat(32),
    DATA_DIR: join(dir, 'prod-safe'),
  });
  assert.equal(production.devPlatform, 'off', 'production never mounts the dev platform');
  assert.equal(production.devPlatformRequested, 'on');
  assert.deepEqual(production.listenHosts, ['0.0.0.0']);
  assert.equal(production.dynamicRegistration, 'approve');
  assert.deepEqual(production.platformPrivateNetworks, []);
});

test('admission limits follow the pool size unless set; server timeouts have defaults and keep their order', () => {
  const config = loadConfig({ DATA_DIR: join(dir, 'limits'), DATABASE_POOL_SIZE: '5' });
  assert.deepEqual(config.admission, { launch: 10, upload: 20, callback: 20, pages: 20, notices: 80 });
  assert.deepEqual(
    loadConfig({ DATA_DIR: join(dir, 'limits'), CONCURRENT_LAUNCHES: '3', CONCURRENT_PAGES: '7' }).admission,
    { launch: 3, upload: 40, callback: 40, pages: 7, notices: 160 },
  );
  // A notice refused is a notice lost (Canvas never sends it again): at least 64 in flight, however small the pool.
  assert.equal(loadConfig({ DATA_DIR: join(dir, 'limits'), DATABASE_POOL_SIZE: '1' }).admission.notices, 64);
  assert.equal(loadConfig({ DATA_DIR: join(dir, 'limits'), CONCURRENT_NOTICES: '500' }).admission.notices, 500);
  assert.deepEqual(config.http, {
    headersTimeoutMs: 20_000,
    requestTimeoutMs: 300_000,
    keepAliveTimeoutMs: 5000,
    uploadIdleTimeoutMs: 30_000,
    // 2 KB/s over 20 s: a trickling upload is cut (UPLOAD_MIN_KB_PER_SECOND).
    uploadMinRate: { bytes: 40_960, windowMs: 20_000 },
  });
  assert.equal(loadConfig({ DATA_DIR: join(dir, 'limits'), UPLOAD_MIN_KB_PER_SECOND: '0' }).http.uploadMinRate, null);
  assert.throws(
    () =>
      loadConfig({ DATA_DIR: join(dir, 'limits'), HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' }),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.variable === 'HTTP_HEADERS_TIMEOUT_MS' &&
      /must not exceed HTTP_REQUEST_TIMEOUT_MS/.test(error.message),
  );
  for (const [variable, value] of [
    ['DEV_PLATFORM', 'yes'],
    ['CONCURRENT_UPLOADS', '0'],
    ['UPLOAD_IDLE_TIMEOUT_MS', '10'],
  ] as const) {
    assert.throws(
      () => loadConfig({ DATA_DIR: join(dir, 'limits'), [variable]: value }),
      (error: unknown) => error instanceof ConfigError && error.variable === variable,
    );
  }
});

test('production with nothing set lists every setting it needs at once, each with what it must be', () => {
  assert.throws(
    () => parseConfig({ NODE_ENV: 'production' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(
        error.problems.map((problem) => problem.variable),
        [
          'PUBLIC_URL',
          'DATABASE_URL',
          'ENCRYPTION_KEY',
          'CALLBACK_SECRET',
          'CHECKER_URL',
          'CHECKER_USERNAME',
          'CHECKER_PASSWORD',
        ],
      );
      assert.equal(
        error.message,
        [
          '7 settings need attention:',
          '  - PUBLIC_URL is required in production: the https address people and LMSs reach the tool at, such as https://lti.example.edu.',
          '  - DATABASE_URL is required in production: the PostgreSQL database, such as postgres://user:password@host:5432/database (the embedded database is for trying the tool and is not crash-durable).',
          '  - ENCRYPTION_KEY is required in production (generate one with: openssl rand -hex 32).',
          '  - CALLBACK_SECRET is required in production (generate one with: openssl rand -hex 24).',
          '  - CHECKER_URL is required in production: the address of the checking service, such as https://checker.example.com (the sandbox is for trying the tool).',
          "  - CHECKER_USERNAME is required in production: the default service account's user name.",
          "  - CHECKER_PASSWORD is required in production: the default service account's password.",
        ].join('\n'),
      );
      return true;
    },
  );
});

test("values that are wrong and settings that are missing come in one list, in words, never zod's", () => {
  assert.throws(
    () => parseConfig({ NODE_ENV: 'production', PORT: 'abc', LOG_LEVEL: 'loud', PUBLIC_URL: 'http://lti.example.edu' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      const sentences = error.problems.map((problem) => problem.sentence);
      assert.equal(sentences[0], 'PORT must be a port number from 1 to 65535, or 0 for any free one; it is abc.');
      assert.equal(
        sentences[1],
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace or silent; it is loud.',
      );
      assert.ok(
        sentences.includes(
          'PUBLIC_URL must use https in production: LMS platforms only launch tools over HTTPS; it is http://lti.example.edu.',
        ),
        sentences.join('\n'),
      );
      assert.equal(error.problems.length, 9, sentences.join('\n'));
      assert.doesNotMatch(error.message, /expected|received|NaN|Invalid/);
      return true;
    },
  );
});

test('a variable that looks like a setting but is not one is named, with the setting it was meant to be', () => {
  assert.deepEqual(
    nearMissWarnings({
      DATABSE_URL: 'postgres://tool@db/olti',
      PUBLIC_ULR: 'https://lti.example.edu',
      log_level: 'debug',
      HOSTS: '0.0.0.0',
      // The shell's and npm's own variables are left alone, however close their names.
      HOME: '/root',
      PWD: '/srv',
      HOSTNAME: 'box',
      NODE_OPTIONS: '--max-old-space-size=512',
      npm_config_cache: '/root/.npm',
      PORT: '3000',
    }),
    [
      'DATABSE_URL is set, but the tool has no setting of that name: did you mean DATABASE_URL? (DATABASE_URL itself is not set)',
      'PUBLIC_ULR is set, but the tool has no setting of that name: did you mean PUBLIC_URL? (PUBLIC_URL itself is not set)',
      'log_level is set, but the tool has no setting of that name: did you mean LOG_LEVEL? (LOG_LEVEL itself is not set)',
      'HOSTS is set, but the tool has no setting of that name: did you mean HOST? (HOST itself is not set)',
    ],
  );
  assert.deepEqual(nearMissWarnings({ PG_URL: 'postgresql://tool@db/olti' }), [
    'PG_URL holds a PostgreSQL address, but the tool reads its database from DATABASE_URL only: did you mean DATABASE_URL? (DATABASE_URL itself is not set)',
  ]);
  assert.deepEqual(nearMissWarnings({ PG_URL: 'postgresql://a@b/c', DATABASE_URL: 'postgres://tool@db/olti' }), []);
});

test('outside production the embedded database is said in one line, with how to use PostgreSQL instead', () => {
  const embedded = parseConfig({ DATA_DIR: '/srv/olti' });
  assert.equal(
    embeddedDatabaseNote(embedded),
    'No DATABASE_URL is set: the data is kept in the embedded database in /srv/olti, which serves this one process and is meant for trying the tool or a small single-process install (it is not crash-durable). To use a PostgreSQL server, set DATABASE_URL=postgres://user:password@host:5432/database.',
  );
  assert.equal(embeddedDatabaseNote(parseConfig({ DATABASE_URL: 'postgres://tool@db/olti' })), null);
});
