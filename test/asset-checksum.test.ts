// How the tool reads the checksum an LMS announces: by the field's name and the digest's length and alphabet, never
// by a guess of the LMS. Canvas's documented value and Blackboard's published one come from their fixtures.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { matchesChecksum, readChecksum } from '../src/assetprocessor/checksum.js';

const bytes = Buffer.from('A student\'s essay, as the LMS serves it.');
const digest = (algorithm: 'sha256' | 'md5', encoding: 'hex' | 'base64' | 'base64url') => createHash(algorithm).update(bytes).digest(encoding);

test('a SHA-256 in base64 (Canvas), base64url, unpadded, or hex of either case reads as the same digest', () => {
  const hex = digest('sha256', 'hex');
  for (const written of [digest('sha256', 'base64'), digest('sha256', 'base64url'), digest('sha256', 'base64').replace(/=+$/, ''), hex, hex.toUpperCase()]) {
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
  for (const written of ['', '   ', 'abc', 'not base64 at all!', Buffer.alloc(20).toString('base64'), 'zz'.repeat(32)]) {
    assert.equal(readChecksum({ sha256: written }), null, JSON.stringify(written));
  }
  assert.equal(readChecksum({}), null);
});

test('a file on disk matches its own digest by either algorithm, and not another file\'s', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'checksum-'));
  try {
    const path = join(dir, 'essay.txt');
    await writeFile(path, bytes);
    const sha = digest('sha256', 'hex');
    assert.equal(await matchesChecksum(path, sha, readChecksum({ sha256: digest('sha256', 'base64') })!), true);
    assert.equal(await matchesChecksum(path, sha, readChecksum({ other: digest('md5', 'base64') })!), true);
    assert.equal(await matchesChecksum(path, sha, readChecksum({ other: createHash('md5').update('other bytes').digest('base64') })!), false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
