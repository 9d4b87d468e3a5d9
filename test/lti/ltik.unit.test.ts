// The ltik, signed and checked with node:crypto's HMAC: it reads as jose reads it, it names what a session needs and
// nothing else, and no forged, altered, unsigned or timeless one reads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignJWT, UnsecuredJWT, decodeJwt, jwtVerify } from 'jose';
import { LTIK_LIFETIME_SECONDS, ltikPlatform, readLtik, signLtik, verifyLtik } from '../../src/lti/ltik.js';

const KEY = 'ltik-test-encryption-key-0123456789abcdef';
const CLAIMS = {
  platformUrl: 'https://lms.example.edu',
  clientId: 'client-1',
  deploymentId: 'deployment-1',
  contextId: 'https%3A%2F%2Flms.example.educlient-1deployment-1course-101_essay_0a1b',
  user: 'student-1',
};
const named = {
  platformUrl: CLAIMS.platformUrl,
  clientId: CLAIMS.clientId,
  deploymentId: CLAIMS.deploymentId,
  contextId: CLAIMS.contextId,
  user: CLAIMS.user,
};

test('an ltik the tool signs is a JWT jose verifies (HS256), with its claims, its own id, its issue and its end only', async () => {
  const ltik = signLtik(CLAIMS, KEY);
  const { payload, protectedHeader } = await jwtVerify(ltik, new TextEncoder().encode(KEY), { algorithms: ['HS256'] });
  assert.deepEqual(protectedHeader, { alg: 'HS256', typ: 'JWT' });
  assert.deepEqual(Object.keys(payload).sort(), [...Object.keys(CLAIMS), 'exp', 'iat', 'jti'].sort());
  // Two ltiks of the same claims in the same second are two keys.
  assert.notEqual(signLtik(CLAIMS, KEY), ltik);
  assert.equal(payload.user, 'student-1');
  assert.ok(Math.abs(Number(payload.iat) - Date.now() / 1000) < 5);
  assert.deepEqual(verifyLtik(ltik, KEY), named);
  assert.deepEqual(ltikPlatform(ltik), { issuer: CLAIMS.platformUrl, clientId: CLAIMS.clientId });
});

test('no forged, altered, unsigned or malformed ltik reads', async () => {
  const ltik = signLtik(CLAIMS, KEY);
  const [header, payload, signature] = ltik.split('.') as [string, string, string];
  const otherUser = Buffer.from(JSON.stringify({ ...CLAIMS, user: 'instructor-1' })).toString('base64url');
  const refused = {
    'another key': signLtik(CLAIMS, `${KEY}-other`),
    'another user, same signature': `${header}.${otherUser}.${signature}`,
    'a signature cut short': `${header}.${payload}.${signature.slice(0, -2)}`,
    'no signature': `${header}.${payload}.`,
    'alg none': new UnsecuredJWT(CLAIMS).encode(),
    'HS512 under the same key': await new SignJWT(CLAIMS)
      .setProtectedHeader({ alg: 'HS512' })
      .sign(new TextEncoder().encode(KEY)),
    'two parts': `${header}.${payload}`,
    'not base64url JSON': `${header}.bm90IGpzb24.${signature}`,
    'an empty string': '',
  };
  for (const [what, token] of Object.entries(refused)) assert.equal(verifyLtik(token, KEY), null, what);
  // A signed token whose claims are not an ltik's (no user) is no ltik either.
  const { user: _user, ...noUser } = CLAIMS;
  const signedWithoutUser = await new SignJWT(noUser)
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(KEY));
  assert.equal(verifyLtik(signedWithoutUser, KEY), null);
  assert.equal(ltikPlatform('not a token'), null);
});

test('a signature opens the page in one spelling only, its canonical base64url', () => {
  // A signature with a character of each alphabet's own (- or _), so that the other alphabet's spelling differs.
  let ltik = '';
  for (let i = 0; !/[-_]/.test(ltik.split('.')[2] ?? ''); i += 1) ltik = signLtik({ ...CLAIMS, user: `s-${i}` }, KEY);
  const [header, payload, signature] = ltik.split('.') as [string, string, string];
  assert.ok(verifyLtik(ltik, KEY), 'the canonical spelling opens the page');
  const spellings = {
    'padded with =': `${signature}=`,
    "in base64's own alphabet": signature.replace(/-/g, '+').replace(/_/g, '/'),
    'with a character base64url does not know': `${signature.slice(0, 10)}!${signature.slice(10)}`,
    'with a space inside': `${signature.slice(0, 10)} ${signature.slice(10)}`,
    'with an escaped character': `${signature.slice(0, 10)}%${signature.slice(10)}`,
  };
  for (const [what, spelling] of Object.entries(spellings)) {
    assert.notEqual(spelling, signature, what);
    assert.equal(verifyLtik(`${header}.${payload}.${spelling}`, KEY), null, what);
  }
});

test('an ltik opens pages for LTIK_LIFETIME_SECONDS from its issue, and one that does not say when it ends none', async () => {
  const ltik = signLtik(CLAIMS, KEY);
  const { exp, iat } = decodeJwt(ltik);
  assert.equal(Number(exp) - Number(iat), LTIK_LIFETIME_SECONDS);
  assert.ok(LTIK_LIFETIME_SECONDS >= 60 * 60 && LTIK_LIFETIME_SECONDS <= 12 * 60 * 60, 'hours, not forever');
  const issued = Number(iat) * 1000;
  assert.deepEqual(verifyLtik(ltik, KEY, issued + (LTIK_LIFETIME_SECONDS - 60) * 1000), named);
  assert.equal(readLtik(ltik, KEY, issued + LTIK_LIFETIME_SECONDS * 1000), 'expired');
  assert.equal(verifyLtik(ltik, KEY, issued + 30 * 24 * 3600 * 1000), null);
  // A signed token with its issue and no end is no ltik: every ltik the tool signs says until when it opens pages.
  const endless = await new SignJWT(CLAIMS)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(new TextEncoder().encode(KEY));
  assert.equal(readLtik(endless, KEY), 'invalid');
  // An exp later than the lifetime does not lengthen it; an ltik that says nothing of its issue is none.
  const longer = await new SignJWT(CLAIMS)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('30d')
    .sign(new TextEncoder().encode(KEY));
  assert.equal(readLtik(longer, KEY, Date.now() + (LTIK_LIFETIME_SECONDS + 5) * 1000), 'expired');
  const timeless = await new SignJWT(CLAIMS).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(KEY));
  assert.equal(readLtik(timeless, KEY), 'invalid');
});
