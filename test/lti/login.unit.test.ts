// The authentication request the tool answers a login with (src/lti/login.ts): every parameter the LTI Security
// Framework 5.1.1.2 requires, the launch address without the target link's query, the LMS's hints passed on, a
// nonce that is new each time, and the platform's own query on its authorization endpoint kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authenticationRequest, loginParams } from '../../src/lti/login.js';
import { issueState } from '../../src/lti/oidc-state.js';

const KEY = 'a-test-encryption-key-of-enough-length';
const newState = () => issueState(KEY, platform.issuer);

const platform = {
  issuer: 'https://moodle.example.edu',
  clientId: 'client-1',
  authUrl: 'https://moodle.example.edu/mod/lti/auth.php?tenant=7',
  active: true,
};

test('the request carries what the Security Framework requires, and the hints the LMS sent', () => {
  const params = loginParams.parse({
    iss: platform.issuer,
    login_hint: '42',
    target_link_uri: 'https://tool.example.org/lti/launch?assignment=9',
    client_id: 'client-1',
    lti_message_hint: '{"cmid":9}',
    lti_deployment_id: '3',
  });
  const state = newState();
  const url = new URL(authenticationRequest(platform, params, state));
  assert.equal(`${url.origin}${url.pathname}`, 'https://moodle.example.edu/mod/lti/auth.php');
  const query = Object.fromEntries(url.searchParams);
  assert.equal(query.tenant, '7', "the platform's own query is kept");
  assert.equal(query.scope, 'openid');
  assert.equal(query.response_type, 'id_token');
  assert.equal(query.response_mode, 'form_post');
  assert.equal(query.prompt, 'none');
  assert.equal(query.client_id, 'client-1');
  assert.equal(query.redirect_uri, 'https://tool.example.org/lti/launch');
  assert.equal(query.login_hint, '42');
  assert.equal(query.lti_message_hint, '{"cmid":9}');
  assert.equal(query.lti_deployment_id, '3');
  assert.equal(query.state, state);
  assert.match(query.nonce!, /^[A-Za-z0-9_-]{22}$/, 'a nonce of 128 random bits');
});

test('each request has its own state and nonce; a login without a client id gets the registration’s', () => {
  const params = loginParams.parse({ iss: platform.issuer, login_hint: '42', target_link_uri: 'https://t/lti/launch' });
  const first = new URL(authenticationRequest(platform, params, newState()));
  const second = new URL(authenticationRequest(platform, params, newState()));
  assert.notEqual(first.searchParams.get('nonce'), second.searchParams.get('nonce'));
  assert.notEqual(first.searchParams.get('state'), second.searchParams.get('state'));
  assert.equal(first.searchParams.get('client_id'), 'client-1');
  assert.equal(first.searchParams.has('lti_message_hint'), false);
});

test('a login without its required parameters is not read', () => {
  assert.equal(loginParams.safeParse({ iss: platform.issuer, login_hint: '42' }).success, false);
  assert.equal(loginParams.safeParse({ login_hint: '42', target_link_uri: 'https://t' }).success, false);
});
