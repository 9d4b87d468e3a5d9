// What `npm start` prints in a terminal: the log records read by a person (one line each, a long list in brief,
// an error's stack below it, secrets still redacted) through the same pino logger that writes JSON elsewhere, and
// the first screen's plain words (where to go, who can reach it, how to stop).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createLogger, readableLine } from '../../src/observe/logger.js';
import { welcomeText, type WelcomeFacts } from '../../src/start/welcome.js';

/** A logger writing to a terminal stand-in, the way main.ts sets it up: the records, each printed readably. */
function terminalLogger(): { logger: ReturnType<typeof createLogger>; printed: string[] } {
  const printed: string[] = [];
  const destination = { write: (line: string) => void printed.push(readableLine(line)) };
  return { logger: createLogger({ level: 'info', destination }), printed };
}

test('a record in a terminal: time, level, message and fields on one line; a long list by its size', () => {
  const { logger, printed } = terminalLogger();
  const migrations = Array.from({ length: 21 }, (_, i) => `00${String(i + 1).padStart(2, '0')}_migration`);
  logger.info({ migrations }, 'Database migrations applied: 21 (0001_migration to 0021_migration)');
  logger.warn(
    { sandboxUrl: 'http://127.0.0.1:4010', role: 'all', listen: ['127.0.0.1', '::1'] },
    'No CHECKER_URL is set',
  );
  assert.equal(printed.length, 2);
  assert.match(
    printed[0]!,
    /^\d\d:\d\d:\d\d INFO {2}Database migrations applied: 21 \(0001_migration to 0021_migration\) {2}migrations=\[21 items\]\n$/,
  );
  assert.match(
    printed[1]!,
    /^\d\d:\d\d:\d\d WARN {2}No CHECKER_URL is set {2}sandboxUrl=http:\/\/127\.0\.0\.1:4010 role=all listen=127\.0\.0\.1,::1\n$/,
  );
  assert.doesNotMatch(printed.join(''), /[{}]"level"/);
});

test('an error in a terminal: its message and stack indented below the line; secrets stay redacted', () => {
  const { logger, printed } = terminalLogger();
  logger.error(
    { err: new Error('the service answered 502'), password: 'hunter2', detail: 'a sentence with spaces' },
    'Upload failed',
  );
  const [text] = printed;
  assert.match(
    text!,
    /^\d\d:\d\d:\d\d ERROR Upload failed {2}password=\[redacted\] detail="a sentence with spaces"\n {4}Error: the service answered 502\n {8}at /,
  );
  assert.doesNotMatch(text!, /hunter2/);
});

test('elsewhere the same logger writes JSON records, one a line', () => {
  let written = '';
  const destination = new Writable({ write: (chunk, _encoding, done) => void ((written += chunk), done()) });
  createLogger({ level: 'info', destination }).info(
    { migrations: ['0001_a', '0002_b'] },
    'Database migrations applied: 2 (0001_a to 0002_b)',
  );
  const record = JSON.parse(written) as Record<string, unknown>;
  assert.deepEqual(record.migrations, ['0001_a', '0002_b']);
  assert.equal(record.msg, 'Database migrations applied: 2 (0001_a to 0002_b)');
});

test('a line that is not a record is printed as it is', () => {
  assert.equal(readableLine('plain words'), 'plain words\n');
});

const local: WelcomeFacts = {
  publicUrl: 'http://localhost:3000',
  devPlatformUrl: 'http://localhost:3000/dev',
  devPlatform: 'loopback',
  loopbackOnly: true,
  embeddedDataDir: '/home/ana/originality-lti/data',
};

test('the first screen: where to go, for this machine only, where the data stays, how to stop', () => {
  const text = welcomeText(local);
  assert.match(text, /Open http:\/\/localhost:3000\/dev in your browser/);
  assert.match(text, /for this machine only/);
  assert.match(text, /Its data stays in \/home\/ana\/originality-lti\/data/);
  assert.match(text, /Stop it with Ctrl-C\./);
  assert.ok(
    text.split('\n').every((line) => line.length <= 120),
    'lines a terminal shows whole',
  );
});

test('the first screen says so when /dev is open to the network, and where the tool is when there is no /dev', () => {
  assert.match(
    welcomeText({ ...local, devPlatform: 'on', loopbackOnly: false }),
    /DEV_PLATFORM=on: anyone who can reach this address can open it/,
  );
  const without = welcomeText({ ...local, devPlatformUrl: null, devPlatform: 'off', embeddedDataDir: null });
  assert.match(
    without,
    /The LTI tool is at http:\/\/localhost:3000: register it in your LMS \(dynamic registration: http:\/\/localhost:3000\/lti\/register\)/,
  );
  assert.match(without, /Only this machine can reach it/);
  assert.doesNotMatch(without, /\/dev|Its data stays/);
  assert.match(without, /Stop it with Ctrl-C\./);
});
