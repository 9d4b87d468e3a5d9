// `npm run sandbox -- --port 4010 ...`: the sandbox on its own, for trying the tool against a separate service.
import { parseArgs } from 'node:util';
import { DEMO_USER, startSandbox, type SandboxUser } from './index.js';

const HELP = `Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--delay-ms 2000] [--callback-url URL]
  [--max-upload-mb 100] [--user EMAIL:PASSWORD ...] [--token-ttl-s 36000]
  [--rate-limit RATIO] [--retry-after-s 1] [--outage] [--slow-ms N] [--callbacks normal|duplicate|drop] [--callback-delay-ms N]
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}`);
  process.exit(2);
}

function number(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) fail(`--${name} must be a number from ${min} to ${max} (given ${JSON.stringify(value)}).`);
  return n;
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' }, host: { type: 'string' }, 'delay-ms': { type: 'string' }, 'callback-url': { type: 'string' }, 'max-upload-mb': { type: 'string' },
      user: { type: 'string', multiple: true }, 'token-ttl-s': { type: 'string' }, 'rate-limit': { type: 'string' }, 'retry-after-s': { type: 'string' },
      outage: { type: 'boolean' }, 'slow-ms': { type: 'string' }, callbacks: { type: 'string' }, 'callback-delay-ms': { type: 'string' }, help: { type: 'boolean' },
    },
    strict: true,
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const users: SandboxUser[] = (values.user ?? []).map((pair) => {
  const index = pair.indexOf(':');
  if (index <= 0 || index === pair.length - 1) fail(`--user must be EMAIL:PASSWORD (given ${JSON.stringify(pair)}).`);
  return { email: pair.slice(0, index), password: pair.slice(index + 1) };
});
if (values['callback-url'] !== undefined && !URL.canParse(values['callback-url'])) fail('--callback-url must be an absolute URL.');
if (values.callbacks !== undefined && !['normal', 'duplicate', 'drop'].includes(values.callbacks)) fail('--callbacks must be normal, duplicate or drop.');
const rateLimit = number('rate-limit', values['rate-limit'], 0, 1);
const sandbox = await startSandbox({
  port: number('port', values.port, 0, 65535) ?? 4010,
  host: values.host ?? '127.0.0.1',
  delayMs: number('delay-ms', values['delay-ms'], 0, 86_400_000) ?? 2000,
  maxUploadBytes: (number('max-upload-mb', values['max-upload-mb'], 1, 10_000) ?? 100) * 1024 * 1024,
  tokenTtlSeconds: number('token-ttl-s', values['token-ttl-s'], 1, 30 * 86_400) ?? 36_000,
  ...(values['callback-url'] ? { callbackUrl: values['callback-url'] } : {}),
  ...(users.length > 0 ? { users } : {}),
  faults: {
    ...(rateLimit !== undefined ? { rateLimit: { ratio: rateLimit, retryAfterSeconds: number('retry-after-s', values['retry-after-s'], 0, 3600) ?? 1 } } : {}),
    ...(values.outage ? { outage: true } : {}),
    ...(values['slow-ms'] ? { slowMs: number('slow-ms', values['slow-ms'], 0, 600_000)! } : {}),
    ...(values.callbacks ? { callbacks: values.callbacks as 'normal' | 'duplicate' | 'drop' } : {}),
    ...(values['callback-delay-ms'] ? { callbackDelayMs: number('callback-delay-ms', values['callback-delay-ms'], 0, 86_400_000)! } : {}),
  },
  logger: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`Checking-service sandbox listening on ${sandbox.url}\n`);
for (const user of sandbox.users) process.stdout.write(`  user ${user.email}${user === DEMO_USER ? ` (password ${DEMO_USER.password})` : ''}\n`);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
