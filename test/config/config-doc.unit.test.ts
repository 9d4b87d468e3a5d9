// docs/configuration.md is written from the settings' schema (scripts/config-doc.ts): the page an administrator
// reads says what src/config/config.ts does, and a setting cannot be added, changed or left undescribed without it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { z } from 'zod';
import { environment, parseConfig, settingDocs } from '../../src/config/config.js';
import { CONFIGURATION_PAGE, configurationPage } from '../../scripts/config-doc.js';

test("docs/configuration.md is the page the settings' schema writes", () => {
  assert.equal(
    readFileSync(CONFIGURATION_PAGE, 'utf8'),
    configurationPage(),
    'docs/configuration.md differs from src/config/config.ts: run `npm run docs:config` and commit the page',
  );
});

test('every setting the tool reads has a row, with the default and limits its schema applies', () => {
  const page = configurationPage();
  for (const name of Object.keys(environment.shape))
    assert.match(page, new RegExp(`^\\| \`${name}\` \\|`, 'm'), `${name} has no row`);
  const rowOf = (name: string) =>
    page
      .split('\n')
      .find((line) => line.startsWith(`| \`${name}\` |`))!
      .split(' | ');
  // What the row says is what parsing does: the default taken when the variable is unset, the ends of the range.
  assert.equal(parseConfig({}).port, 3000);
  // PORT says its range in its own words, and the sentence that refuses a value says the same words.
  assert.deepEqual(rowOf('PORT').slice(1, 3), ['`3000`', 'a port number from 1 to 65535, or 0 for any free one']);
  assert.throws(
    () => parseConfig({ PORT: '65536' }),
    /PORT must be a port number from 1 to 65535, or 0 for any free one; it is 65536\.$/,
  );
  assert.deepEqual(rowOf('DATABASE_POOL_SIZE').slice(1, 3), ['`10`', 'a whole number from 1 to 200']);
  assert.throws(
    () => parseConfig({ DATABASE_POOL_SIZE: '0' }),
    /DATABASE_POOL_SIZE must be a whole number from 1 to 200; it is 0\.$/,
  );
  assert.equal(parseConfig({}).role, 'all');
  assert.deepEqual(rowOf('ROLE').slice(1, 3), ['`all`', '`all`, `web`, `worker`']);
  assert.equal(parseConfig({}).databasePoolSize, 10);
  assert.equal(parseConfig({}).admission.launch, 20);
  assert.equal(rowOf('CONCURRENT_LAUNCHES')[1], '2 × `DATABASE_POOL_SIZE`');
  assert.deepEqual(parseConfig({}).pollScheduleSeconds, [60, 120, 300, 600, 1800]);
  assert.equal(rowOf('POLL_SCHEDULE_SECONDS')[1], '`60,120,300,600,1800`');
  assert.match(rowOf('CALLBACK_SECRET')[3]!, /Never shown in messages or logs/);
});

const plain = (value: unknown) => (value === '' ? undefined : value);

test('a setting without a description, or described twice, stops the page from being written', () => {
  const undescribed = z.object({ SOME_LIMIT: z.preprocess(plain, z.coerce.number().int().min(1).max(9).default(4)) });
  assert.throws(() => configurationPage(undescribed), /SOME_LIMIT has no description in src\/config\/config\.ts/);

  const twice = z.object({
    SOME_LIMIT: z
      .preprocess(plain, z.coerce.number().int().min(1).max(9).default(4))
      .register(settingDocs, { description: 'a limit', default: '5' }),
  });
  assert.throws(() => configurationPage(twice), /SOME_LIMIT: its default is in its schema \(`4`\)/);

  const unsaid = z.object({
    SOME_CODE: z
      .preprocess(
        plain,
        z
          .string()
          .regex(/^[a-z]+$/)
          .optional(),
      )
      .register(settingDocs, { description: 'a code' }),
  });
  assert.throws(() => configurationPage(unsaid), /SOME_CODE: its schema's checks cannot be said simply/);

  const described = z.object({
    SOME_LIMIT: z
      .preprocess(plain, z.coerce.number().int().min(1).max(9).default(4))
      .register(settingDocs, { description: 'a limit' }),
  });
  assert.match(configurationPage(described), /^\| `SOME_LIMIT` \| `4` \| a whole number from 1 to 9 \| a limit \|$/m);
});
