// A person who starts the tool to try it must not expose it: with no settings it listens on loopback only, the
// dev platform answers people on this machine only (a forged X-Forwarded-For or a proxy on this machine does not
// make a stranger local), the switch that opens it warns once, and production never mounts it.
// (The gate against other machines with HOST=0.0.0.0: test/devplatform/gate.security.test.ts.)
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { otherAddress, statusOf, statusWithHost } from '../support/probe.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/db.js';
import { startToolProcess } from '../support/process.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'olti-safe-'));
  dirs.push(dir);
  return dir;
}
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const noOtherAddress = otherAddress ? false : 'this machine has no non-loopback IPv4 address to test from';

const warningsAbout = (output: string, pattern: RegExp) =>
  output.split('\n').filter((line) => line.includes('"level":40') && pattern.test(line));

/**
 * The tool with `env`, on a PostgreSQL database of its own (starting on it is quicker than the embedded one, and
 * these checks are about the web side). This file starts processes, not an in-process tool, so it runs once, in
 * the PostgreSQL pass; test/devplatform/gate.security.test.ts checks the gate in-process on both databases.
 */
const onPglite =
  backend === 'pglite' ? 'these checks start separate processes: they run once, in the PostgreSQL pass' : false;
const databases: TestDatabase[] = [];
after(async () => {
  for (const database of databases) await database.drop();
});
async function childTool(env: Record<string, string>) {
  const database = await createTestDatabase();
  databases.push(database);
  return startToolProcess({ ...database.env, ...env }, { cwd: freshDir(), timeoutMs: 150_000 });
}

describe('a fresh start with no settings', { skip: onPglite || noOtherAddress }, () => {
  test("answers /dev on 127.0.0.1 and ::1, and does not listen on the machine's other address", async () => {
    const tool = await startToolProcess({}, { cwd: freshDir(), timeoutMs: 150_000 });
    try {
      assert.equal(await statusOf(`${tool.url}/dev/`), 200);
      assert.equal(await statusOf(`http://[::1]:${tool.port}/dev/`), 200);
      assert.equal(await statusOf(`http://localhost:${tool.port}/dev/`), 200);
      assert.equal(await statusOf(`http://${otherAddress}:${tool.port}/dev/`), 'ECONNREFUSED');
      assert.equal(await statusOf(`http://${otherAddress}:${tool.port}/healthz`), 'ECONNREFUSED');
      // Even on loopback: a request through a proxy (it says so) or under another site's name (DNS rebinding).
      assert.equal(await statusOf(`${tool.url}/dev/`, { 'x-forwarded-for': '203.0.113.9' }), 403);
      assert.equal(await statusOf(`${tool.url}/dev/`, { forwarded: 'for=203.0.113.9' }), 403);
      assert.equal(await statusWithHost(`${tool.url}/dev/`, `attacker.example:${tool.port}`), 403);
      assert.equal(await statusWithHost(`${tool.url}/dev/`, `localhost:${tool.port}`), 200);
      assert.match(tool.output(), /"dynamicRegistration":"open"/);
      assert.deepEqual(warningsAbout(tool.output(), /dev platform|DEV_PLATFORM/i), []);
    } finally {
      assert.equal(await tool.stop(), 0);
    }
  });
});

describe('listening on the network', { skip: onPglite || noOtherAddress }, () => {
  test('DEV_PLATFORM=on with HOST=0.0.0.0 opens /dev to the network and warns once', async () => {
    const tool = await childTool({ HOST: '0.0.0.0', DEV_PLATFORM: 'on' });
    try {
      assert.equal(await statusOf(`http://${otherAddress}:${tool.port}/dev/`), 200);
      const warnings = warningsAbout(
        tool.output(),
        /DEV_PLATFORM=on and HOST=0\.0\.0\.0: anyone who can reach this address can open \/dev/,
      );
      assert.equal(warnings.length, 1, tool.output());
    } finally {
      assert.equal(await tool.stop(), 0);
    }
  });
});

test('production never mounts /dev, whatever DEV_PLATFORM says, and says so', { skip: onPglite }, async () => {
  const tool = await childTool({
    NODE_ENV: 'production',
    DEV_PLATFORM: 'on',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'https://lti.example.edu',
    ENCRYPTION_KEY: 'e'.repeat(64),
    CALLBACK_SECRET: 'c'.repeat(32),
    CHECKER_URL: 'http://127.0.0.1:9',
    CHECKER_USERNAME: 'service@example.edu',
    CHECKER_PASSWORD: 'not-used-in-this-test',
  });
  try {
    assert.equal(await statusOf(`${tool.url}/dev/`), 404);
    assert.equal(await statusOf(`${tool.url}/dev/jwks`), 404);
    assert.equal(await statusOf(`${tool.url}/healthz`), 200);
    assert.equal(warningsAbout(tool.output(), /DEV_PLATFORM=on is ignored in production/).length, 1);
  } finally {
    assert.equal(await tool.stop(), 0);
  }
});
