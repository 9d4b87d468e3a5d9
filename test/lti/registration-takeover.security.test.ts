// Threat: taking over a registered LMS through LTI Dynamic Registration. Before, the issuer check was a string
// prefix (a longer port or host, or user info before an @, passed it) and a registration for a known issuer and
// client id replaced that LMS's keys, login and token URLs: whoever answered with the victim's (public) client id
// could then sign launches as its instructors and receive the tool's grade and roster requests.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import { launch } from '../../src/devplatform/agent.js';
import { issuerMismatch } from '../../src/lti/dynamic-registration.js';
import { toolUrls } from '../../src/lti/provider.js';
import { listRegistrations } from '../../src/lti/registrations.js';
import { configurationFor, openRegistration, serveFakeLms, type FakeLms } from '../support/fake-lms.js';
import { payloadOf } from '../support/id-token.js';
import { servePlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
const closers: Array<() => Promise<void>> = [];

before(async () => {
  tool = await startTestTool();
});
after(async () => {
  for (const close of closers) await close();
  await tool.stop();
});

async function fakeLms(options: Parameters<typeof serveFakeLms>[0]): Promise<FakeLms> {
  const lms = await serveFakeLms(options);
  closers.push(lms.close);
  return lms;
}

const registeredCount = async () => (await listRegistrations(tool.tool.database.db)).length;

describe('look-alike issuers are refused, before the tool posts anything to the LMS', () => {
  test('a longer port: a configuration at http://127.0.0.1:<port> naming the issuer with that port less its last digit (41230 for 4123)', async () => {
    const lms = await fakeLms({ configuration: (origin) => configurationFor(origin.slice(0, -1), origin) });
    const before = await registeredCount();
    const answer = await openRegistration(tool.url, lms.configurationUrl, '127.0.0.11');
    assert.equal(answer.status, 400, answer.text);
    assert.match(answer.text, /names an issuer that its address does not belong to/);
    assert.match(answer.text, /scheme, host and port must be the same/);
    assert.equal(lms.registrations.length, 0, 'the tool registered itself with the look-alike');
    assert.equal(await registeredCount(), before);
  });

  test('a longer host: a configuration at http://127.0.0.10 naming the issuer http://127.0.0.1', async () => {
    const lms = await fakeLms({
      host: '127.0.0.10',
      configuration: (origin) => configurationFor('http://127.0.0.1', origin),
    });
    const answer = await openRegistration(tool.url, lms.configurationUrl, '127.0.0.11');
    assert.equal(answer.status, 400, answer.text);
    assert.match(answer.text, /not on the issuer's own host/);
    assert.equal(lms.registrations.length, 0);
  });

  test('user info before an @: http://127.0.0.1:<victim port>@<attacker>/... is refused without fetching anything', async () => {
    const lms = await fakeLms({ configuration: (origin) => configurationFor('http://127.0.0.1:4123', origin) });
    const address = `http://127.0.0.1:4123@127.0.0.1:${lms.port}/.well-known/openid-configuration`;
    const answer = await openRegistration(tool.url, address, '127.0.0.11');
    assert.equal(answer.status, 400, answer.text);
    assert.match(answer.text, /user name or password \(text before an @\)/);
    assert.equal(lms.configurationRequests, 0, 'the tool fetched from the host after the @');
    assert.equal(lms.registrations.length, 0);
  });

  test("the rule itself: same origin, the issuer's path or below, no user info, https outside loopback development", () => {
    const dev = { production: false };
    const prod = { production: true };
    assert.equal(
      issuerMismatch('https://moodle.school.edu', 'https://moodle.school.edu/mod/lti/openid-configuration.php', prod),
      null,
    );
    assert.equal(
      issuerMismatch('https://moodle.school.edu/', 'https://moodle.school.edu/mod/lti/openid-configuration.php', prod),
      null,
    );
    assert.equal(
      issuerMismatch('https://school.edu/moodle', 'https://school.edu/moodle/mod/lti/openid-configuration.php', prod),
      null,
    );
    assert.equal(
      issuerMismatch('http://localhost:3000/dev', 'http://localhost:3000/dev/.well-known/openid-configuration', dev),
      null,
    );
    for (const [issuer, configuration, options] of [
      ['https://school.edu/moodle', 'https://school.edu/moodle2/mod/lti/openid-configuration.php', prod],
      [
        'https://canvas.instructure.com',
        'https://canvas.instructure.com.evil.example/api/lti/security/openid-configuration',
        prod,
      ],
      ['https://lms.school.edu', 'https://lms.school.edu@evil.example/openid-configuration', prod],
      ['https://lms.school.edu', 'https://lms.school.edu:8443/openid-configuration', prod],
      ['https://lms.school.edu', 'http://lms.school.edu/openid-configuration', prod],
      ['http://localhost:3000/dev', 'http://localhost:3000/dev/.well-known/openid-configuration', prod],
      ['http://lms.school.edu', 'http://lms.school.edu/openid-configuration', dev],
    ] as const) {
      assert.notEqual(issuerMismatch(issuer, configuration, options), null, `${configuration} accepted for ${issuer}`);
    }
  });
});

describe('a registration never replaces another', () => {
  let victim: ServedPlatform;
  let attacker: ServedPlatform;

  before(async () => {
    victim = await servePlatform(tool.url, { clientId: 'victim-client', deploymentId: 'victim-deployment' });
    attacker = await servePlatform(tool.url, { clientId: 'victim-client', deploymentId: 'attacker-deployment' });
    closers.push(victim.close, attacker.close);
    const registered = await fetch(victim.platform.registrationUrl(toolUrls(tool.url).register));
    assert.equal(registered.status, 200, await registered.text());
    // The attacker's configuration under the victim's own issuer path (the strongest case: it passes the issuer
    // check), naming the victim's issuer and answering with the victim's client id, with the attacker's endpoints.
    const issuer = victim.platform.registration().issuer;
    victim.app.get('/lms/shared/.well-known/openid-configuration', (_req, res) => {
      res.json({ ...configurationFor(issuer, attacker.url), registration_endpoint: `${issuer}/shared/register` });
    });
    victim.app.post('/lms/shared/register', express.json(), (req, res) => {
      res.json({
        ...req.body,
        client_id: 'victim-client',
        'https://purl.imsglobal.org/spec/lti-tool-configuration': { deployment_id: 'attacker-deployment' },
      });
    });
    victim.platform.addResourceLink({ id: 'essay', title: 'Essay' });
  });

  const snapshot = async () => {
    const registration = (await listRegistrations(tool.tool.database.db)).find((r) => r.clientId === 'victim-client');
    const platform = await tool.tool.platforms.getPlatform(victim.platform.registration().issuer, 'victim-client');
    assert.ok(registration && platform, 'the victim is registered');
    // The tool's key pair for it is part of the registration: a second registration must not replace it.
    return { registration, keyPair: { kid: await platform.platformKid(), key: await platform.platformPrivateKey() } };
  };

  test('a second registration for the same issuer and client id is refused with a page that says so, and changes nothing', async () => {
    const first = await snapshot();
    assert.deepEqual(first.registration.deploymentIds, ['victim-deployment']);
    const answer = await openRegistration(
      tool.url,
      `${victim.platform.registration().issuer}/shared/.well-known/openid-configuration`,
      '127.0.0.12',
    );
    assert.equal(answer.status, 409, answer.text);
    assert.match(
      answer.text,
      /This LMS is already registered with the tool .* nothing was changed\. An administrator of the tool can remove or update the existing registration\./,
    );
    assert.deepEqual(await snapshot(), first, 'the keys, URLs, deployments or state of the registered LMS changed');
    assert.ok(
      tool.logs.some((line) => line.includes('Dynamic registration failed') && line.includes('already registered')),
    );
    assert.ok(
      !tool.logs.some(
        (line) => line.includes('Platform registered dynamically') && line.includes('attacker-deployment'),
      ),
    );
  });

  test("a launch signed with the second one's key is refused; the first LMS's launches keep working", async () => {
    const forged = await launch(victim.platform, {
      userId: 'instructor-1',
      resourceLinkId: 'essay',
      replaceIdToken: (idToken) => attacker.platform.sign(payloadOf(idToken)),
    });
    assert.equal(forged.status, 401, forged.body.slice(0, 300));
    assert.equal(forged.ltik, null);
    const genuine = await launch(victim.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    assert.equal(genuine.status, 200, genuine.body.slice(0, 300));
    assert.ok(genuine.ltik, "the victim LMS's launch opened a session");
  });
});
