// The message types the tool takes (src/lti/messages/index.ts, answered by src/web/launches/index.ts): what the type
// checker cannot hold. Each is announced to some LMS in dynamic registration, since an LMS sends only the messages a
// tool registered, and each counts under a word of its own in the launch counter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toolConfiguration } from '../../src/lti/dynamic-registration.js';
import { LAUNCH_MESSAGES } from '../../src/lti/messages/index.js';
import { PRODUCT_FAMILIES } from '../../src/lti/product-family.js';
import { LAUNCH_ANSWERS } from '../../src/web/launches/index.js';

const TOOL = {
  name: 'Originality',
  description: 'Checks papers',
  urls: {
    login: 'https://tool.example/lti/login',
    launch: 'https://tool.example/lti/launch',
    keys: 'https://tool.example/lti/keys',
  },
  requireApproval: false,
  assetProcessor: true,
  assetProcessorEula: true,
};

test('every message type the tool takes is announced in dynamic registration to some LMS', () => {
  const announced = new Set(
    [...PRODUCT_FAMILIES, undefined].flatMap((family) =>
      toolConfiguration(TOOL, family)['https://purl.imsglobal.org/spec/lti-tool-configuration'].messages.map(
        (message) => message.type,
      ),
    ),
  );
  for (const type of Object.keys(LAUNCH_MESSAGES)) assert.ok(announced.has(type), `${type} is never announced`);
});

test("every message type counts launches under a word of its own (originality_launches_total's kind)", () => {
  const kinds = Object.values(LAUNCH_ANSWERS).map((line) => line.kind);
  assert.deepEqual([...new Set(kinds)], kinds);
});
