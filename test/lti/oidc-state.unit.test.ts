// The OIDC state the login signs instead of keeping (src/lti/oidc-state.ts): a launch reads back what the login put
// in it, and nothing else passes for one: a state changed in any character, signed under another installation's
// key, expired, or for another issuer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loginParams } from '../../src/lti/login.js';
import { issueState, readState } from '../../src/lti/oidc-state.js';
import { lmsFixture } from '../support/lms-fixtures.js';

const KEY = 'one-installation-encryption-key-0123456789';
const ISSUER = 'https://canvas.example.edu';

test('a state reads back as the login issued it, for its issuer only, with where it is kept in the LMS', () => {
  const plain = readState(KEY, issueState(KEY, ISSUER));
  assert.ok(plain, 'a fresh state is read');
  assert.equal(plain.isFor(ISSUER), true);
  assert.equal(plain.isFor('https://moodle.example.edu'), false);
  assert.equal(plain.storage, null);
  const stored = readState(KEY, issueState(KEY, ISSUER, { target: '_parent', origin: 'https://sso.example.edu' }));
  assert.deepEqual(stored?.storage, { target: '_parent', origin: 'https://sso.example.edu' });
});

test('each state is new, and fits a cookie name and a form field', () => {
  const first = issueState(KEY, ISSUER);
  const second = issueState(KEY, ISSUER);
  assert.notEqual(first, second);
  assert.match(first, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  assert.ok(first.length < 200, `${first.length} characters`);
});

test('a state changed in any character, or signed with another key, is not read', () => {
  const state = issueState(KEY, ISSUER);
  for (let i = 0; i < state.length; i += 1) {
    const changed = `${state.slice(0, i)}${state[i] === 'A' ? 'B' : 'A'}${state.slice(i + 1)}`;
    assert.equal(readState(KEY, changed), undefined, `changed at ${i}`);
  }
  assert.equal(readState('another-installation-key-0123456789', state), undefined);
  assert.equal(readState(KEY, 'not-issued-by-the-tool'), undefined);
  assert.equal(readState(KEY, `${state}.more`), undefined);
});

test('a state is good for ten minutes from its login', () => {
  const issuedAt = Date.parse('2026-11-27T10:00:00Z');
  const state = issueState(KEY, ISSUER, null, issuedAt);
  assert.ok(readState(KEY, state, issuedAt + 9 * 60_000));
  assert.equal(readState(KEY, state, issuedAt + 10 * 60_000), undefined);
  assert.deepEqual(readState(KEY, state, issuedAt)?.expiresAt, new Date(issuedAt + 10 * 60_000));
});

test('the state signed for a Canvas login as seen keeps its storage target, and comes back as sent from Canvas and Moodle', () => {
  const login = lmsFixture('canvas', 'login-initiation').payload;
  const params = loginParams.parse(login);
  const target = String(login.lti_storage_target);
  const state = issueState(KEY, params.iss, { target, origin: new URL(params.iss).origin });
  assert.deepEqual(readState(KEY, state)?.storage, { target, origin: 'https://canvas.home.russfeld.me' });
  // Canvas posts the state back as it was sent; Moodle reads it with PARAM_TEXT (tags stripped) into an escaped
  // hidden field: base64url and dots pass both unchanged, and fit the launch form's 1,000 characters.
  assert.equal(lmsFixture('moodle', 'authentication-response').payload.stateParam, 'PARAM_TEXT');
  assert.match(state, /^[A-Za-z0-9_.-]+$/);
  assert.ok(state.length < 1000, `${state.length} characters`);
});
