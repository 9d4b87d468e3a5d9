// The claims' names (src/lti/claims.ts): what an LMS sends under its own names is read as the standard claim, the
// standard name wins where both are there, and a scope is asked for by the name the LMS lists.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CLAIM, SCOPE, readClaim, reportAddressOf, scopeAsListed, withStandardNames } from '../../src/lti/claims.js';

const fixture = (lms: string, name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/lms/${lms}/${name}.json`, import.meta.url), 'utf8')).payload as Record<
    string,
    unknown
  >;

test("Blackboard's published notice reads as the standard claims: activity, submission and asset service", () => {
  const payload = fixture('blackboard', 'submission-notice');
  assert.equal(payload[CLAIM.activity], undefined, 'the fixture sends no standard activity claim');
  const named = withStandardNames(payload);
  assert.deepEqual(named[CLAIM.activity], { id: '_77428_1', activity_id: '_77428_1' });
  assert.deepEqual(named[CLAIM.submission], { id: '_907_1', submission_id: '_907_1' });
  const assets = (named[CLAIM.assetService] as { assets: Array<{ asset_id: string }> }).assets;
  assert.deepEqual(
    assets.map((asset) => asset.asset_id),
    ['_294_1'],
  );
  assert.equal(reportAddressOf(named), null, "Blackboard's notice names no report address");
});

test("Canvas's notice, already standard, is read unchanged", () => {
  const payload = fixture('canvas', 'submission-notice');
  const named = withStandardNames(payload);
  for (const name of ['activity', 'submission', 'assetService', 'assetReport'] as const) {
    assert.deepEqual(named[CLAIM[name]], payload[CLAIM[name]], name);
  }
  const address = reportAddressOf(named);
  assert.ok(address, 'Canvas names where reports go');
  assert.match(address.url, /^https?:\/\//);
});

test('where a payload carries a claim under the standard name and an alias, the standard one is read', () => {
  const standard = { assets: [{ asset_id: 'standard' }] };
  const alias = { assets: [{ asset_id: 'alias' }] };
  const payload = {
    [CLAIM.assetService]: standard,
    'https://purl.imsglobal.org/spec/lti-ap/claim/assetservice': alias,
  };
  assert.deepEqual(readClaim(payload, 'assetService'), standard);
  assert.deepEqual(withStandardNames(payload)[CLAIM.assetService], standard);
  assert.deepEqual(
    readClaim({ 'https://purl.imsglobal.org/spec/lti-ap/claim/assetservice': alias }, 'assetService'),
    alias,
  );
  assert.equal(readClaim({}, 'assetService'), undefined);
});

test("a scope is asked for under the name the LMS lists, never under a name that is none of the scope's", () => {
  const blackboard = 'https://purl.imsglobal.org/spec/lti-ap/scope/asset.readonly';
  assert.equal(scopeAsListed('assetRead', [blackboard]), blackboard);
  assert.equal(scopeAsListed('assetRead', ['https://other.example/scope/everything', blackboard]), blackboard);
  assert.equal(scopeAsListed('assetRead', ['https://other.example/scope/everything']), SCOPE.assetRead);
  assert.equal(
    scopeAsListed('assetRead', [SCOPE.assetRead, blackboard]),
    SCOPE.assetRead,
    'the first listed known name',
  );
  assert.equal(scopeAsListed('report', undefined), SCOPE.report);
  assert.equal(scopeAsListed('report', [42, null, { scope: SCOPE.report }]), SCOPE.report);
  assert.equal(
    scopeAsListed('report', blackboard),
    SCOPE.report,
    'a list is an array; a bare string is not read as one',
  );
});

test('a report address is http(s) only, and its scope is read as listed', () => {
  const at = (report_url: string, scope?: string[]) => reportAddressOf({ [CLAIM.assetReport]: { report_url, scope } });
  assert.deepEqual(at('https://lms.example/reports', ['https://purl.imsglobal.org/spec/lti-ap/scope/report']), {
    url: 'https://lms.example/reports',
    scope: 'https://purl.imsglobal.org/spec/lti-ap/scope/report',
  });
  assert.deepEqual(at('http://lms.example/reports'), { url: 'http://lms.example/reports', scope: SCOPE.report });
  assert.equal(at('javascript:alert(1)'), null);
  assert.equal(at('file:///etc/passwd'), null);
  assert.equal(at('https://lms.example/re\0ports'), null);
  assert.equal(at('not an address'), null);
});
