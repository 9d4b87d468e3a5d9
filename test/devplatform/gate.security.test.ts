// The dev platform's gate with the tool listening on every interface (HOST=0.0.0.0, DEV_PLATFORM unset): a
// request from the machine's other address is refused whatever it claims (X-Forwarded-For, X-Real-IP, a loopback
// Host), while this machine's browser still gets in; dynamic registration waits for approval; one warning.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { otherAddress, statusOf, statusWithHost } from '../support/probe.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool | undefined;
before(async () => {
  if (otherAddress) tool = await startTestTool({ HOST: '0.0.0.0' });
});
after(async () => tool?.stop());

test(
  'HOST=0.0.0.0: /dev refuses the other address, forged X-Forwarded-For or not; registration waits for approval; one warning',
  { skip: otherAddress ? false : 'this machine has no non-loopback IPv4 address to test from' },
  async () => {
    const running = tool!;
    const port = new URL(running.url).port;
    assert.equal(await statusOf(`${running.url}/dev/`), 200);
    assert.equal(
      await statusOf(`http://${otherAddress}:${port}/healthz`),
      200,
      'the tool listens on the other address',
    );
    for (const path of ['/dev/', '/dev/jwks', '/dev/auth', '/dev/token', '/dev/.well-known/openid-configuration']) {
      assert.equal(await statusOf(`http://${otherAddress}:${port}${path}`), 403, path);
      assert.equal(
        await statusOf(`http://${otherAddress}:${port}${path}`, {
          'x-forwarded-for': '127.0.0.1',
          'x-real-ip': '127.0.0.1',
        }),
        403,
        `${path} with forged headers`,
      );
      assert.equal(
        await statusWithHost(`http://${otherAddress}:${port}${path}`, `127.0.0.1:${port}`),
        403,
        `${path} with a loopback Host`,
      );
    }
    const refused = await fetch(`http://${otherAddress}:${port}/dev/`, { headers: { accept: 'application/json' } });
    assert.deepEqual(await refused.json(), {
      error:
        'The dev platform answers only to a browser on the machine the tool runs on. To open it to the network, start the tool with DEV_PLATFORM=on.',
    });
    assert.equal(running.config.dynamicRegistration, 'approve');
    const warnings = running.logs.filter(
      (line) =>
        line.includes('"level":40') &&
        /reachable from the network; the dev platform at \/dev still answers only/.test(line),
    );
    assert.equal(warnings.length, 1);
  },
);
