// How the tool reads the checksum an LMS announces: by the field's name and the digest's length and alphabet, never
// by a guess of the LMS. Canvas's documented value and Blackboard's published one come from their fixtures.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { ChecksumCheck, readChecksum } from '../../src/assetprocessor/checksum.js';

const bytes = Buffer.from("A student's essay, as the LMS serves it.");
const digest = (algorithm: 'sha256' | 'md5', encoding: 'hex' | 'base64' | 'base64url') =>
  createHash(algorithm).update(bytes).digest(encoding);

test('a SHA-256 in base64 (Canvas), base64url, unpadded, or hex of either case reads as the same digest', () => {
  const hex = digest('sha256', 'hex');
  for (const written of [
    digest('sha256', 'base64'),
    digest('sha256', 'base64url'),
    digest('sha256', 'base64').replace(/=+$/, ''),
    hex,
    hex.toUpperCase(),
  ]) {
    assert.deepEqual(readChecksum({ sha256: written }), { algorithm: 'sha256', hex }, written);
  }
});

test('an MD5 in base64 (Blackboard) or hex reads as an MD5; an algorithm named beside it must agree with the length', () => {
  const hex = digest('md5', 'hex');
  assert.deepEqual(readChecksum({ other: digest('md5', 'base64') }), { algorithm: 'md5', hex });
  assert.deepEqual(readChecksum({ other: hex, algorithm: 'MD5' }), { algorithm: 'md5', hex });
  assert.equal(readChecksum({ other: digest('md5', 'base64'), algorithm: 'sha-256' }), null);
  assert.equal(readChecksum({ sha256: digest('md5', 'base64') }), null, 'a sha256_checksum must be 32 bytes');
});

test('what cannot be read is nothing to check against: the wrong length, other characters, an empty value', () => {
  for (const written of [
    '',
    '   ',
    'abc',
    'not base64 at all!',
    Buffer.alloc(20).toString('base64'),
    'zz'.repeat(32),
  ]) {
    assert.equal(readChecksum({ sha256: written }), null, JSON.stringify(written));
  }
  assert.equal(readChecksum({}), null);
});

test("bytes as they stream in match their own digest by either algorithm, and not another file's", async () => {
  const streamed = async (declared: string, algorithm: 'sha256' | 'other') => {
    const check = new ChecksumCheck(readChecksum(algorithm === 'sha256' ? { sha256: declared } : { other: declared })!);
    const passed: Buffer[] = [];
    for await (const chunk of check.through([bytes.subarray(0, 10), bytes.subarray(10)])) passed.push(chunk);
    assert.deepEqual(Buffer.concat(passed), bytes, 'the body passes unchanged');
    return check.matches(digest('sha256', 'hex'));
  };
  assert.equal(await streamed(digest('sha256', 'base64'), 'sha256'), true);
  assert.equal(await streamed(digest('md5', 'base64'), 'other'), true);
  assert.equal(await streamed(createHash('md5').update('other bytes').digest('base64'), 'other'), false);
});
