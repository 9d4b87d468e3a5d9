// Attacks that use the tool as a proxy into its own network: every address a platform (or someone posing as one in
// dynamic registration) names, pointed at loopback, link-local metadata, private ranges, a name that resolves to
// loopback, a redirect from an allowed host into a forbidden one; and answers too large or too slow. Each must be
// refused without a connection to the forbidden address, and within the deadline.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import express from 'express';
import { launch } from '../../src/devplatform/agent.js';
import { agsRequest } from '../../src/grades/ags.js';
import { accessTokenWithin } from '../../src/lti/access-token.js';
import { allowPlatformNetworks } from '../../src/lti/platform-http.js';
import { forgetPlatformKeys } from '../../src/lti/platform-keys.js';
import { toolUrls } from '../../src/lti/provider.js';
import { saveRegistration } from '../../src/lti/registrations.js';
import { fetchRoster } from '../../src/lti/roster.js';
import { servePlatform, type ServedPlatform } from '../support/platform.js';
import { pageText } from '../support/page-text.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const text = pageText;
const REFUSED = /does not connect to .*private, loopback or link-local network.*PLATFORM_PRIVATE_NETWORKS/;

let tool: TestTool;
/** A TCP listener on 127.0.0.1 that counts connections: the forbidden target every attack aims at. */
let target: { server: Server; port: number; connections: number };
/** A platform that exists, on 127.0.0.1 (allowed only where a test says so). */
let lms: ServedPlatform;

before(async () => {
  // Production's default: no private network at all; every attack here comes from one address, more than the
  // registration rate limit lets through (that limit has its own test).
  tool = await startTestTool({ PLATFORM_PRIVATE_NETWORKS: 'none', REGISTRATIONS_PER_ADDRESS: '1000' });
  const server = createServer((socket: Socket) => {
    target.connections += 1;
    socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  target = { server, port: (server.address() as { port: number }).port, connections: 0 };
  lms = await servePlatform(tool.url, { clientId: 'ssrf-client' });
  lms.platform.addResourceLink({ id: 'essay', title: 'Essay' });
});
after(async () => {
  target.server.close();
  await lms.close();
  await tool.stop();
});
beforeEach(() => {
  allowPlatformNetworks([]);
  forgetPlatformKeys();
  target.connections = 0;
});

/** Opens /lti/register as an LMS would, with the configuration address an attacker chose. */
async function register(openidConfiguration: string): Promise<{ status: number; sentence: string; ms: number }> {
  const started = Date.now();
  const url = new URL(toolUrls(tool.url).register);
  url.searchParams.set('openid_configuration', openidConfiguration);
  const response = await fetch(url);
  return { status: response.status, sentence: text(await response.text()), ms: Date.now() - started };
}

describe('dynamic registration', () => {
  const forbidden = () => [
    `http://127.0.0.1:${target.port}/.well-known/openid-configuration`,
    `http://localhost:${target.port}/.well-known/openid-configuration`,
    `http://[::ffff:127.0.0.1]:${target.port}/.well-known/openid-configuration`,
    `http://[::1]:${target.port}/.well-known/openid-configuration`,
    `http://0.0.0.0:${target.port}/.well-known/openid-configuration`,
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://10.0.0.5/.well-known/openid-configuration',
    'http://172.16.4.4/.well-known/openid-configuration',
    'http://192.168.1.1/.well-known/openid-configuration',
    'http://100.64.0.1/.well-known/openid-configuration',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://2130706433:' + target.port + '/', // 127.0.0.1 written as one number
  ];

  test('an openid_configuration at loopback, link-local, private or metadata addresses is refused without a connection', async () => {
    for (const address of forbidden()) {
      const answer = await register(address);
      assert.equal(answer.status, 502, `${address}: ${answer.sentence}`);
      assert.match(answer.sentence, REFUSED, address);
      assert.ok(answer.ms < 3000, `${address} took ${answer.ms} ms`);
    }
    assert.equal(target.connections, 0, 'the tool connected to the forbidden address');
  });

  test('a configuration from an allowed host whose registration_endpoint is forbidden: nothing is posted there', async () => {
    allowPlatformNetworks(['127.0.0.1/32']);
    const config = express();
    const server = config.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    config.get('/.well-known/openid-configuration', (_req, res) => {
      res.json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        registration_endpoint: `http://127.0.0.2:${target.port}/register`,
      });
    });
    try {
      // 127.0.0.2 is loopback too, and not in the allowed list.
      const answer = await register(`${issuer}/.well-known/openid-configuration`);
      assert.equal(answer.status, 502);
      assert.match(answer.sentence, /does not connect to 127\.0\.0\.2/);
      assert.doesNotMatch(answer.sentence, /The tool is registered/);
    } finally {
      server.close();
    }
  });

  test('a redirect from an allowed host into a forbidden one is not followed there', async () => {
    allowPlatformNetworks(['127.0.0.1/32']);
    const redirector = express();
    redirector.get('/config', (_req, res) => res.redirect(302, `http://127.0.0.2:${target.port}/latest/meta-data/`));
    redirector.get('/metadata', (_req, res) => res.redirect(307, 'http://169.254.169.254/latest/meta-data/'));
    const server = redirector.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (const path of ['/config', '/metadata']) {
        const answer = await register(`${base}${path}`);
        assert.equal(answer.status, 502);
        assert.match(answer.sentence, REFUSED, path);
      }
      assert.equal(target.connections, 0);
    } finally {
      server.close();
    }
  });

  test('an answer too large is cut off; one that never ends is given up within the deadline', async () => {
    allowPlatformNetworks(['127.0.0.1/32']);
    const slow = express();
    slow.get('/huge', (_req, res) => {
      res.type('application/json');
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const write = () => {
        while (res.write(chunk)) {
          /* fills the socket until it pushes back */
        }
      };
      res.on('drain', write);
      write();
    });
    slow.get('/hang', () => undefined); // headers never come
    slow.get('/trickle', (_req, res) => {
      res.type('application/json').write('{"issuer":');
      // ...and the rest never comes.
    });
    const server = slow.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const huge = await register(`${base}/huge`);
      assert.equal(huge.status, 502);
      assert.match(huge.sentence, /answered with more than 256 KB/);
      for (const path of ['/hang', '/trickle']) {
        const hung = await register(`${base}${path}`);
        assert.equal(hung.status, 502);
        assert.match(hung.sentence, /did not (answer|finish its answer) within 10 s/, path);
        assert.ok(hung.ms < 13_000, `${path}: waited ${hung.ms} ms`);
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('the URLs of a registered platform', () => {
  /** Registers the platform with one of its addresses replaced by the attacker's. */
  async function registerWith(clientId: string, urls: { jwksUrl?: string; tokenUrl?: string }) {
    const registration = lms.platform.registration();
    await saveRegistration(
      { db: tool.tool.database.db, provider: tool.tool.platforms },
      { ...registration, clientId, ...urls },
      'cli',
    );
    return { issuer: registration.issuer, clientId };
  }

  test('launches from a platform whose keys URL is forbidden get a page that says so, and the keys are not fetched', async () => {
    const forbiddenKeys = [
      `http://127.0.0.1:${target.port}/jwks`,
      `http://localhost:${target.port}/jwks`,
      `https://[::ffff:127.0.0.1]:${target.port}/jwks`,
      'https://169.254.169.254/latest/meta-data/',
      'https://10.1.2.3/jwks',
    ];
    // The platform's own pages (login, authorization) stay reachable for the browser; only the tool is strict.
    await registerWith('ssrf-client', { jwksUrl: forbiddenKeys[0]! });
    for (const jwksUrl of forbiddenKeys) {
      await tool.tool.database.db
        .updateTable('platform')
        .set({ jwks_url: jwksUrl })
        .where('client_id', '=', 'ssrf-client')
        .execute();
      const result = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
      assert.equal(result.status, 503, `${jwksUrl}: ${text(result.body)}`);
      assert.match(
        text(result.body),
        /The LMS's signing keys could not be fetched from .+; try again in a minute or ask the administrator to check the keys URL/,
      );
      assert.equal(result.ltik, null);
    }
    assert.equal(target.connections, 0, 'the tool connected to the forbidden address');
  });

  test('the token endpoint, the gradebook (AGS) and the roster (NRPS) at forbidden addresses are not asked', async () => {
    const platform = await registerWith('ssrf-token', { tokenUrl: `http://127.0.0.1:${target.port}/token` });
    const ltiPlatform = await tool.tool.platforms.getPlatform(platform.issuer, platform.clientId);
    assert.ok(ltiPlatform);
    await assert.rejects(
      accessTokenWithin(ltiPlatform, 'https://purl.imsglobal.org/spec/lti-ags/scope/score', 5000),
      REFUSED,
    );

    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      `http://127.0.0.1:${target.port}/lineitems`,
      'https://[fe80::1]/lineitems',
      'https://192.168.0.10/lineitems',
    ]) {
      await assert.rejects(agsRequest(url, { method: 'GET', token: 'a-token' }), (error: Error) => {
        assert.match(error.message, /The gradebook at .* did not answer: .*does not connect to/);
        return true;
      });
    }

    // The roster: the platform's token endpoint is allowed here, its memberships URL is not.
    allowPlatformNetworks(['127.0.0.1/32']);
    const honest = lms.platform.registration();
    await saveRegistration(
      { db: tool.tool.database.db, provider: tool.tool.platforms },
      { ...honest, clientId: 'ssrf-client' },
      'cli',
    );
    for (const membershipsUrl of [`http://127.0.0.2:${target.port}/memberships`, 'https://10.9.8.7/memberships']) {
      await assert.rejects(
        fetchRoster(tool.tool.platforms, { issuer: honest.issuer, clientId: 'ssrf-client' }, membershipsUrl, {
          fresh: true,
        }),
        /The LMS roster did not answer: .*does not connect to/,
      );
    }
    assert.equal(target.connections, 0, 'the tool connected to the forbidden address');
  });

  test('the same platform on an allowed private network works (PLATFORM_PRIVATE_NETWORKS)', async () => {
    allowPlatformNetworks(['127.0.0.1/32']);
    const honest = lms.platform.registration();
    await saveRegistration(
      { db: tool.tool.database.db, provider: tool.tool.platforms },
      { ...honest, clientId: 'ssrf-client' },
      'cli',
    );
    const result = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    assert.equal(result.status, 200, text(result.body));
    assert.ok(result.ltik);
  });
});
