// The log keeps every secret out: each field named in REDACTED_FIELDS is censored in a record's own fields and
// three levels below them, in an error's fields, in the values a message interpolates and in a child logger's
// bindings, while the objects the caller logged stay as they were.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger, REDACTED_FIELDS } from '../../src/observe/logger.js';

function capture(): { logger: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  return { logger: createLogger({ level: 'trace', destination: { write: (line) => void lines.push(line) } }), lines };
}

test('every secret field is censored, in the record and three levels below it', () => {
  const { logger, lines } = capture();
  for (const field of REDACTED_FIELDS) {
    const record = {
      [field]: 'top-secret-0',
      a: { [field]: 'top-secret-1', b: { [field]: 'top-secret-2', c: { [field]: 'top-secret-3' } } },
      list: [{ [field]: 'top-secret-in-a-list' }],
    };
    logger.info(record, 'a record');
    assert.equal(record[field], 'top-secret-0', 'the logged object is not changed');
  }
  assert.equal(lines.length, REDACTED_FIELDS.length);
  for (const line of lines) {
    assert.doesNotMatch(line, /top-secret/);
    assert.equal(line.match(/"\[redacted\]"/g)?.length, 5, line);
  }
});

test("an error's own fields are censored; its type, message and stack are kept, its exchange left out", () => {
  const { logger, lines } = capture();
  const error = Object.assign(new Error('The platform refused the token'), {
    code: 'PLATFORM_REFUSED',
    accessToken: 'error-secret',
    options: { headers: { authorization: 'Bearer exchange-secret' } },
  });
  logger.error({ err: error, path: '/lti/launch' }, 'Grade push failed');
  logger.error(error);
  assert.equal(error.accessToken, 'error-secret');
  for (const line of lines) {
    const written = JSON.parse(line) as { err: Record<string, unknown> };
    assert.doesNotMatch(line, /error-secret|exchange-secret/);
    assert.equal(written.err.type, 'Error');
    assert.equal(written.err.message, 'The platform refused the token');
    assert.equal(written.err.code, 'PLATFORM_REFUSED');
    assert.equal(written.err.accessToken, '[redacted]');
    assert.match(String(written.err.stack), /^Error: The platform refused the token/);
  }
});

test("interpolated values and a child's bindings are censored too", () => {
  const { logger, lines } = capture();
  logger.info('Session %o, token %j', { ltik: 'interpolated-secret' }, { nested: { password: 'nested-secret' } });
  logger
    .child({ adminToken: 'binding-secret', part: 'admin' })
    .child({ cookie: 'grandchild-secret' })
    .info({ step: 1 }, 'from a grandchild');
  assert.equal(lines.length, 2);
  for (const line of lines) assert.doesNotMatch(line, /-secret/);
  assert.match(lines[1]!, /"part":"admin"/);
});

test('a record with a byte array or a date is written, not refused', () => {
  const { logger, lines } = capture();
  logger.info({ received: Buffer.from('abc'), at: new Date(0), token: 'buffer-secret' }, 'bytes');
  assert.equal(lines.length, 1);
  assert.doesNotMatch(lines[0]!, /buffer-secret/);
  assert.match(lines[0]!, /"at":"1970-01-01T00:00:00.000Z"/);
});
