// What launches keep in memory of the registrations (a platform's record and status, its deployments and keys URL,
// the tool's own keys) follows an administrator's change on the very next launch, in every process: each tool
// process here is a real `node src/main.ts`, and the changes come from a third, the CLI. On PostgreSQL two tool
// processes share the database; on PGlite the one process that serves the embedded database and the CLI beside it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { request } from 'undici';
import { launch, type LaunchResult } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { DEMO_USER, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/db.js';
import { startForwarder, type Forwarder } from '../support/forwarder.js';
import { payloadOf } from '../support/id-token.js';
import { registerWithCli, servePlatform, type ServedPlatform } from '../support/platform.js';
import { runToExit, startToolProcess, type ToolProcess } from '../support/process.js';
import { eventually } from '../support/wait.js';
import { MAX_AGE_MS } from '../../src/lti/registration-cache.js';

const NOT_VERIFIED = /The launch from your LMS could not be verified/;
const SWITCHED_OFF = /The tool is switched off for this LMS/;
const NOT_REGISTERED = /not registered with the tool/;

let database: TestDatabase;
let balancer: Forwarder;
let sandbox: Sandbox;
let lms: ServedPlatform;
let env: Record<string, string>;
const tools: ToolProcess[] = [];
const servers: Server[] = [];

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

async function cli(...args: string[]): Promise<string> {
  const result = await runToExit('cli/main.ts', args, env);
  assert.equal(result.code, 0, `cli ${args.join(' ')}: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

async function registrationId(): Promise<string> {
  const id = (await cli('platform', 'list')).match(/id:\s+(\S+)/)?.[1];
  assert.ok(id, 'the registration is listed');
  return id;
}

/** An instructor's launch through this tool process only: login, the token's post and the page. */
function launchThrough(
  tool: ToolProcess,
  options: { replaceIdToken?: (idToken: string) => Promise<string> } = {},
): Promise<LaunchResult> {
  balancer.setTargets([tool.url]);
  return launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay', ...options });
}

async function toolKeyIds(tool: ToolProcess): Promise<string[]> {
  const answer = await request(`${tool.url}/lti/keys`);
  const body = (await answer.body.json()) as { keys: Array<{ kid: string }> };
  return body.keys.map((key) => key.kid);
}

before(async () => {
  database = await createTestDatabase();
  balancer = await startForwarder();
  sandbox = await startSandbox({});
  env = { ...database.env, ENCRYPTION_KEY: randomBytes(24).toString('hex'), PUBLIC_URL: balancer.url };
  // The embedded database's one process runs web and worker alike.
  const web = {
    ...env,
    HOST: '127.0.0.1',
    ROLE: backend === 'pglite' ? 'all' : 'web',
    DEV_PLATFORM: 'off',
    CHECKER_URL: sandbox.url,
    CHECKER_USERNAME: DEMO_USER.email,
    CHECKER_PASSWORD: DEMO_USER.password,
  };
  const processes = backend === 'pglite' ? 1 : 2;
  for (let i = 0; i < processes; i += 1) tools.push(await startToolProcess(web));
  lms = await servePlatform(balancer.url);
  lms.platform.addResourceLink({ id: 'essay', title: 'Essay', lineItem: { label: 'Essay', scoreMaximum: 100 } });
  lms.platform.addUser({
    id: 'instructor-1',
    name: 'Ida Instructor',
    email: 'ida@example.edu',
    roles: ROLES.instructor,
  });
  await registerWithCli(env, lms.platform.registration());
  // Every process has read the registration and keeps it.
  for (const tool of tools) assert.equal((await launchThrough(tool)).status, 200);
});

after(async () => {
  for (const tool of tools) await tool.stop();
  for (const server of servers) server.close();
  await lms?.close();
  await balancer?.close();
  await sandbox?.close();
  await database?.drop();
});

describe('an administrator changes a registration', () => {
  test('switched off: the next launch in every process is refused; switched on: it works again', async () => {
    const id = await registrationId();
    await cli('platform', 'deactivate', id);
    for (const tool of tools) {
      const refused = await launchThrough(tool);
      assert.equal(refused.status, 403, text(refused.body));
      assert.match(text(refused.body), SWITCHED_OFF);
    }
    await cli('platform', 'activate', id);
    for (const tool of tools) assert.equal((await launchThrough(tool)).status, 200);
  });

  test("the platform's keys URL moved to a new key: the next launch in every process is verified with the new key only", async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = 'rotated-1';
    const keys = express();
    keys.get(
      '/jwks',
      (_req, res) =>
        void exportJWK(publicKey).then((jwk) => res.json({ keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] })),
    );
    const server = keys.listen(0, '127.0.0.1');
    servers.push(server);
    await once(server, 'listening');
    const registration = lms.platform.registration();
    await registerWithCli(env, {
      ...registration,
      jwksUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/jwks`,
    });

    const signedWithNewKey = (idToken: string) =>
      new SignJWT(payloadOf(idToken)).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
    for (const tool of tools) {
      const oldKey = await launchThrough(tool);
      assert.equal(oldKey.status, 401, text(oldKey.body));
      assert.match(text(oldKey.body), NOT_VERIFIED);
      const newKey = await launchThrough(tool, { replaceIdToken: signedWithNewKey });
      assert.equal(newKey.status, 200, text(newKey.body));
    }
    await registerWithCli(env, registration);
    for (const tool of tools) assert.equal((await launchThrough(tool)).status, 200);
  });

  test("removed: the next launch in every process is refused and the tool's key for it is gone; registered again, it launches under a new key", async () => {
    const registration = lms.platform.registration();
    const before = await toolKeyIds(tools[0]!);
    assert.equal(before.length, 1);
    await cli('platform', 'remove', '--issuer', registration.issuer, '--client-id', registration.clientId);
    for (const tool of tools) {
      const refused = await launchThrough(tool);
      // Refused at login (ltijs no longer knows the platform) or at the launch (the tool's own registration is gone).
      assert.ok(refused.status === 400 || refused.status === 403, `answered ${refused.status}: ${text(refused.body)}`);
      assert.match(text(refused.body), NOT_REGISTERED);
      // The keys route reads the registrations through the process's cache, which may serve what it holds for up
      // to MAX_AGE_MS (a public key, published a moment longer); then the key is gone.
      await eventually(
        async () => (await toolKeyIds(tool)).length === 0,
        "the removed platform's key is still published",
        MAX_AGE_MS + 2000,
        100,
      );
    }
    await registerWithCli(env, registration);
    for (const tool of tools) {
      assert.equal((await launchThrough(tool)).status, 200);
      const after = await toolKeyIds(tool);
      assert.equal(after.length, 1);
      assert.notEqual(after[0], before[0]);
    }
  });
});
