// Payloads an LMS documents or its vendor published from a real delivery, kept in test/fixtures/lms/<lms>/ with their
// source: the oracle the tool and the dev platform are held to (lti-notes, "LMS dialects").
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

export interface LmsFixture {
  source: { what: string; repository?: string; path?: string; published?: string; read: string };
  payload: Record<string, unknown>;
}

/** The fixture `name` of `lms`; fails when it does not name its source. */
export function lmsFixture(lms: 'canvas' | 'blackboard' | 'moodle', name: string): LmsFixture {
  const fixture = JSON.parse(
    readFileSync(new URL(`../fixtures/lms/${lms}/${name}.json`, import.meta.url), 'utf8'),
  ) as LmsFixture;
  assert.ok(
    fixture.source?.what && fixture.source.read && (fixture.source.repository || fixture.source.published),
    `${lms}/${name} names its source`,
  );
  return fixture;
}

/** The claim names of a payload (its keys), and of the objects inside it, as "claim.field" paths. */
export function shapeOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const entries = Array.isArray(value) ? (value.length > 0 ? [['[]', value[0]] as const] : []) : Object.entries(value);
  return entries.flatMap(([key, inner]) => [`${prefix}${key}`, ...shapeOf(inner, `${prefix}${key}.`)]);
}
