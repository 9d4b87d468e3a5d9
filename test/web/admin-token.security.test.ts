// /admin opens the whole installation with the bootstrap token (ADMIN_TOKEN), and its page carries that token in its
// forms: no cache keeps any of its answers, and the token cannot be guessed at speed. From one address, the first
// few wrong tokens are answered at once, the next ones later and later, and past the limit the address is refused
// (429, a sentence, Retry-After, a warning in the log), the right token too; the administrator at another address
// still gets in. Behind a reverse proxy (TRUSTED_PROXIES), a stranger's wrong tokens count against the stranger's
// forwarded address, never the proxy's, so the administrator's right token from another client still opens the page;
// a client that is no trusted proxy cannot pose as another by writing X-Forwarded-For itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent, request } from 'undici';
import { FREE_FAILURES, LOCKING_FAILURES, LOCK_MS } from '../../src/web/admin-throttle.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const ADMIN_TOKEN = 'admin-token-test-0123456789abcdefghij';
let tool: TestTool;
/** Another machine, as the tool sees it: requests leave from another loopback address. */
const elsewhere = new Agent({ localAddress: '127.0.0.2' });

before(async () => {
  // 127.0.0.1 stands for nginx beside the tool; a request from it without X-Forwarded-For counts as its own.
  tool = await startTestTool({ ADMIN_TOKEN, TRUSTED_PROXIES: '127.0.0.1/32,::1/128' });
});
after(async () => {
  await elsewhere.close();
  await tool?.stop();
});

async function openAdmin(token: string | null, from?: Agent, forwardedFor?: string) {
  const started = Date.now();
  const answer = await request(`${tool.url}/admin`, {
    headers: {
      accept: 'text/html',
      ...(token ? { authorization: `AdminToken ${token}` } : {}),
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    ...(from ? { dispatcher: from } : {}),
  });
  const body = await answer.body.text();
  return {
    status: answer.statusCode,
    cacheControl: String(answer.headers['cache-control'] ?? ''),
    retryAfter: answer.headers['retry-after'] === undefined ? null : Number(answer.headers['retry-after']),
    body,
    ms: Date.now() - started,
  };
}

describe('/admin', () => {
  test('no answer of /admin may be cached: the page holds the bootstrap token', async () => {
    const page = await openAdmin(ADMIN_TOKEN);
    assert.equal(page.status, 200, page.body);
    assert.ok(page.body.includes(ADMIN_TOKEN), "the page's forms carry the token");
    assert.equal(page.cacheControl, 'no-store');
    const login = await openAdmin(null);
    assert.equal(login.status, 401);
    assert.equal(login.cacheControl, 'no-store');
  });

  test('wrong tokens from one address are slowed, then refused for a while; the right token from another address still opens it', async () => {
    const wrong = (n: number) => openAdmin(`wrong-token-${n}-0123456789abcdefghij`);
    for (let n = 1; n <= FREE_FAILURES; n += 1) assert.equal((await wrong(n)).status, 401);
    // The next ones are answered later and later: half a second more each.
    const sixth = await wrong(FREE_FAILURES + 1);
    const seventh = await wrong(FREE_FAILURES + 2);
    assert.equal(sixth.status, 401);
    assert.equal(seventh.status, 401);
    assert.ok(sixth.ms >= 450, `the 6th wrong token was answered after ${sixth.ms} ms`);
    assert.ok(seventh.ms >= 950, `the 7th wrong token was answered after ${seventh.ms} ms`);

    // The rest sent all at once, as a guesser would: counted as they arrive, the last one is refused.
    const from = tool.logs.length;
    const rest = await Promise.all(
      Array.from({ length: LOCKING_FAILURES - FREE_FAILURES - 2 }, (_, i) => wrong(FREE_FAILURES + 3 + i)),
    );
    const refused = rest.filter((answer) => answer.status === 429);
    assert.equal(refused.length, 1, `answers: ${rest.map((answer) => answer.status).join(' ')}`);
    assert.equal(rest.filter((answer) => answer.status === 401).length, rest.length - 1);
    assert.match(refused[0]!.body, /Too many wrong tokens were sent from your address\. Wait 15 minutes/);
    assert.equal(refused[0]!.retryAfter, LOCK_MS / 1000);
    assert.ok(
      tool.logs
        .slice(from)
        .some((line) => line.includes('"level":40') && line.includes('Too many wrong admin tokens from one address')),
      'a warning says which address was refused',
    );

    // Refused now whatever it sends, the right token too: a refusal tells a guesser nothing.
    const right = await openAdmin(ADMIN_TOKEN);
    assert.equal(right.status, 429);
    assert.ok(right.retryAfter! > 0 && right.retryAfter! <= LOCK_MS / 1000, `Retry-After ${right.retryAfter}`);
    assert.ok(!right.body.includes(ADMIN_TOKEN));
    assert.equal(right.cacheControl, 'no-store');

    // The administrator at another machine is not held.
    const admin = await openAdmin(ADMIN_TOKEN, elsewhere);
    assert.equal(admin.status, 200, admin.body);
    assert.ok(admin.ms < 5_000, `answered after ${admin.ms} ms`);
  });
});

describe('/admin behind a reverse proxy (TRUSTED_PROXIES)', () => {
  // The proxy is this machine's 127.0.0.1, as nginx beside the tool; 127.0.0.2 is a client that reaches the tool
  // without it.
  test("a stranger's wrong tokens through the proxy never lock the administrator's right token out", async () => {
    // nginx appends the address it was reached from; what the client sent itself stays to the left of it.
    const stranger = '203.0.113.7';
    const administrator = '198.51.100.20';
    const wrong = await Promise.all(
      Array.from({ length: LOCKING_FAILURES }, (_, n) =>
        openAdmin(`wrong-token-${n}-0123456789abcdefghij`, undefined, `${administrator}, ${stranger}`),
      ),
    );
    assert.equal(wrong.filter((answer) => answer.status === 429).length, 1, wrong.map((a) => a.status).join(' '));
    // The stranger is held, whatever it writes into the header itself.
    const strangerAgain = await openAdmin(ADMIN_TOKEN, undefined, stranger);
    assert.equal(strangerAgain.status, 429);
    // The administrator, through the same proxy, is not.
    const admin = await openAdmin(ADMIN_TOKEN, undefined, administrator);
    assert.equal(admin.status, 200, admin.body);
    assert.ok(admin.ms < 5_000, `answered after ${admin.ms} ms`);
  });

  test('a client that is no trusted proxy is counted by its own address, whatever X-Forwarded-For it sends', async () => {
    const posing = '198.51.100.99';
    const wrong = await Promise.all(
      Array.from({ length: LOCKING_FAILURES }, (_, n) =>
        openAdmin(`wrong-token-${n}-0123456789abcdefghij`, elsewhere, posing),
      ),
    );
    assert.equal(wrong.filter((answer) => answer.status === 429).length, 1);
    // 127.0.0.2 is held, not the address it wrote; through the proxy that address still opens the page.
    assert.equal((await openAdmin(ADMIN_TOKEN, elsewhere, posing)).status, 429);
    const admin = await openAdmin(ADMIN_TOKEN, undefined, posing);
    assert.equal(admin.status, 200, admin.body);
  });
});
