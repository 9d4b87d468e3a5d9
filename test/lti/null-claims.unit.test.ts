// Null reads as absent (src/lti/claims.ts, withoutNulls): for every message type, built from an LMS's own payload
// (test/fixtures/lms/), every field of every claim set to null is read exactly as the same payload without that field:
// the launch it opens is the same, or it is refused at the same claim. Canvas serializes nested claims without
// compacting them (test/fixtures/lms/canvas/resource-link-request.json quotes where), so its launches carry such nulls.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { z } from 'zod';
import { submissionNoticeClaims } from '../../src/assetprocessor/notices.js';
import { CLAIM, withStandardNames, withoutNulls } from '../../src/lti/claims.js';
import { commonClaims, launchOf } from '../../src/lti/launch.js';
import { LAUNCH_MESSAGES, type LaunchMessage, type LaunchMessageType } from '../../src/lti/messages/index.js';
import { lmsFixture } from '../support/lms-fixtures.js';

type Path = string[];

/** Every member of every object in the payload, as the keys that lead to it (the entries of arrays are left alone). */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => [[...prefix, key], ...pathsOf(inner, [...prefix, key])]);
}

/** A copy of the payload with the member at `path` set to null, or left out. */
function changed(payload: Record<string, unknown>, path: Path, how: 'null' | 'absent'): Record<string, unknown> {
  const copy = structuredClone(payload);
  let parent = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  if (how === 'null') parent[path.at(-1)!] = null;
  else delete parent[path.at(-1)!];
  return copy;
}

/** What a schema makes of a verified payload: what it read, or the claim it refused at. */
function reading(schema: z.ZodType, payload: Record<string, unknown>): unknown {
  const parsed = schema.safeParse(withStandardNames(payload));
  return parsed.success ? { read: parsed.data } : { refusedAt: parsed.error.issues[0]!.path.join(' › ') };
}

/** The message types, each with an LMS's own payload of it (and the claims the fixture's page elides). */
const LAUNCHES: Array<{ type: LaunchMessageType; lms: 'canvas' | 'moodle'; fixture: string }> = [
  { type: 'LtiResourceLinkRequest', lms: 'canvas', fixture: 'resource-link-request' },
  { type: 'LtiDeepLinkingRequest', lms: 'canvas', fixture: 'deep-linking-request' },
  { type: 'LtiSubmissionReviewRequest', lms: 'moodle', fixture: 'submission-review-request' },
  { type: 'LtiReportReviewRequest', lms: 'canvas', fixture: 'report-review-request' },
  { type: 'LtiAssetProcessorSettingsRequest', lms: 'canvas', fixture: 'settings-request' },
  { type: 'LtiEulaRequest', lms: 'canvas', fixture: 'eula-request' },
];

/** Moodle's fixture names its sources file by file (test/fixtures/lms/moodle/), Canvas's as lmsFixture reads them. */
const payloadOf = (lms: 'canvas' | 'moodle', fixture: string) => ({
  [CLAIM.targetLinkUri]: 'https://tool.example/lti/launch',
  ...(lms === 'moodle'
    ? (
        JSON.parse(readFileSync(new URL(`../fixtures/lms/moodle/${fixture}.json`, import.meta.url), 'utf8')) as {
          payload: Record<string, unknown>;
        }
      ).payload
    : lmsFixture(lms, fixture).payload),
});

describe('null where a claim is optional reads as absent, for every message type', () => {
  for (const { type, lms, fixture } of LAUNCHES) {
    test(`${type} (${lms}'s ${fixture}): every field as null reads as the same launch without it`, () => {
      const payload = payloadOf(lms, fixture);
      const schemas: Array<[string, z.ZodType]> = [
        ['the claims every launch may carry', commonClaims],
        [`the claims of ${type}`, LAUNCH_MESSAGES[type].claims as z.ZodType],
      ];
      for (const [what, schema] of schemas) {
        assert.ok('read' in (reading(schema, payload) as object), `${what}: the LMS's payload as it sends it is read`);
        for (const path of pathsOf(payload)) {
          assert.deepEqual(
            reading(schema, changed(payload, path, 'null')),
            reading(schema, changed(payload, path, 'absent')),
            `${what}: ${path.join(' › ')} as null`,
          );
        }
      }
    });
  }

  test("Canvas's submission notice: every field as null reads as the same notice without it", () => {
    const payload = { ...lmsFixture('canvas', 'submission-notice').payload, [CLAIM.deploymentId]: 'deployment-1' };
    assert.ok('read' in (reading(submissionNoticeClaims, payload) as object));
    for (const path of pathsOf(payload)) {
      assert.deepEqual(
        reading(submissionNoticeClaims, changed(payload, path, 'null')),
        reading(submissionNoticeClaims, changed(payload, path, 'absent')),
        path.join(' › '),
      );
    }
  });

  test('Canvas\'s launch of an assignment without a description opens it: "description": null is no description', () => {
    const payload = payloadOf('canvas', 'resource-link-request');
    const standard = withStandardNames(payload);
    const launch = launchOf(
      { issuer: 'https://canvas.instructure.com', clientId: '10000000000001', deploymentId: '1:abc' },
      'user-1',
      [],
      commonClaims.parse(standard),
      LAUNCH_MESSAGES.LtiResourceLinkRequest.claims.parse(standard) as LaunchMessage,
    );
    assert.deepEqual(launch.resourceLink, {
      id: 'b4d9a2c2-52e1-4a39-8f0c-5c6a1d2e7f10',
      title: 'Essay on rivers',
      description: null,
    });
    assert.equal(launch.productFamily, 'canvas');
  });

  test('a required claim that is null is refused as missing: the resource link id, the EULA service address', () => {
    const link = payloadOf('canvas', 'resource-link-request');
    assert.deepEqual(reading(commonClaims, changed(link, [CLAIM.resourceLink, 'id'], 'null')), {
      refusedAt: `${CLAIM.resourceLink} › id`,
    });
    const eula = payloadOf('canvas', 'eula-request');
    assert.deepEqual(
      reading(LAUNCH_MESSAGES.LtiEulaRequest.claims, changed(eula, [CLAIM.eulaService, 'url'], 'null')),
      {
        refusedAt: `${CLAIM.eulaService} › url`,
      },
    );
  });

  test('arrays keep their entries; the objects in them are read the same way', () => {
    assert.deepEqual(withoutNulls({ a: [null, { b: null, c: 1 }], d: null, e: { f: null } }), {
      a: [null, { c: 1 }],
      e: {},
    });
  });
});
