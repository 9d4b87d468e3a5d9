// `npm run sandbox -- --port 4010 ...`: the sandbox on its own, for trying the tool against a separate service.
// Prints its base URL and its users' e-mail addresses (a password only for the built-in demo user), and stops
// cleanly on SIGINT or SIGTERM. A bad flag is a sentence on stderr and exit code 2.
import { parseArgs } from 'node:util';
import { DEMO_USER, startSandbox, type SandboxFaults, type SandboxOptions, type SandboxUser } from './index.js';

const HELP = `Usage: npm run sandbox -- [options]
  --port N                 port to listen on (default 4010; 0 = any free port)
  --host ADDRESS           address to listen on (default 127.0.0.1)
  --delay-ms N             analysis time after an upload (default 2000)
  --callback-url URL       PUT target of the completion callback (default: none)
  --max-upload-mb N        upload limit in MB (default 100)
  --user EMAIL:PASSWORD    an account (repeatable; default: the demo user)
  --token-ttl-s N          token lifetime in seconds (default 36000)
  --utc-offset-min N       zone of the timestamps, minutes from UTC (default 330, India)
  --rate-limit RATIO       share 0..1 of requests answered 429
  --retry-after-s N        Retry-After of those answers (default 1)
  --outage                 answer every request 503
  --slow-ms N              delay every answer by N ms
  --callbacks MODE         normal, duplicate or drop
  --callback-delay-ms N    extra delay before each callback
  --help
`;

class UsageError extends Error {}

function whole(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max} (given ${JSON.stringify(value)}).`);
  return Number(value);
}

function parse(argv: string[]): SandboxOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'delay-ms': { type: 'string' },
        'callback-url': { type: 'string' },
        'max-upload-mb': { type: 'string' },
        user: { type: 'string', multiple: true },
        'token-ttl-s': { type: 'string' },
        'utc-offset-min': { type: 'string' },
        'rate-limit': { type: 'string' },
        'retry-after-s': { type: 'string' },
        outage: { type: 'boolean' },
        'slow-ms': { type: 'string' },
        callbacks: { type: 'string' },
        'callback-delay-ms': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';

  const users: SandboxUser[] = (values.user ?? []).map((pair) => {
    const at = pair.indexOf(':');
    const email = pair.slice(0, at);
    if (at <= 0 || at === pair.length - 1 || !/^[^\s@:]+@[^\s@:]+$/.test(email))
      throw new UsageError(
        `--user must be EMAIL:PASSWORD (given a value for ${at > 0 ? JSON.stringify(email) : 'no e-mail address'}).`,
      );
    return { email, password: pair.slice(at + 1) };
  });
  const callbackUrl = values['callback-url'];
  if (callbackUrl !== undefined && !/^https?:\/\//.test(callbackUrl))
    throw new UsageError('--callback-url must be an absolute http(s) URL.');
  const ratioText = values['rate-limit'];
  const ratio = ratioText === undefined ? undefined : Number(ratioText);
  if (ratio !== undefined && !(ratioText !== '' && ratio >= 0 && ratio <= 1))
    throw new UsageError(`--rate-limit must be a number from 0 to 1 (given ${JSON.stringify(ratioText)}).`);
  const mode = values.callbacks;
  if (mode !== undefined && mode !== 'normal' && mode !== 'duplicate' && mode !== 'drop')
    throw new UsageError('--callbacks must be normal, duplicate or drop.');
  const retryAfter = whole('retry-after-s', values['retry-after-s'], 0, 3600);
  if (retryAfter !== undefined && ratio === undefined) throw new UsageError('--retry-after-s goes with --rate-limit.');
  const slowMs = whole('slow-ms', values['slow-ms'], 0, 600_000);
  const callbackDelayMs = whole('callback-delay-ms', values['callback-delay-ms'], 0, 86_400_000);
  const delayMs = whole('delay-ms', values['delay-ms'], 0, 86_400_000);
  const maxUploadMb = whole('max-upload-mb', values['max-upload-mb'], 1, 10_000);
  const tokenTtlSeconds = whole('token-ttl-s', values['token-ttl-s'], 1, 30 * 86_400);
  const utcOffsetMinutes = whole('utc-offset-min', values['utc-offset-min'], -720, 840);

  const faults: SandboxFaults = {
    ...(ratio !== undefined ? { rateLimit: { ratio, retryAfterSeconds: retryAfter ?? 1 } } : {}),
    ...(values.outage ? { outage: true } : {}),
    ...(slowMs !== undefined ? { slowMs } : {}),
    ...(mode !== undefined ? { callbacks: mode } : {}),
    ...(callbackDelayMs !== undefined ? { callbackDelayMs } : {}),
  };
  return {
    port: whole('port', values.port, 0, 65_535) ?? 4010,
    host: values.host ?? '127.0.0.1',
    ...(delayMs !== undefined ? { delayMs } : {}),
    ...(callbackUrl !== undefined ? { callbackUrl } : {}),
    ...(maxUploadMb !== undefined ? { maxUploadBytes: maxUploadMb * 1024 * 1024 } : {}),
    ...(users.length > 0 ? { users } : {}),
    ...(tokenTtlSeconds !== undefined ? { tokenTtlSeconds } : {}),
    ...(utcOffsetMinutes !== undefined ? { utcOffsetMinutes } : {}),
    faults,
    logger: (line) => process.stderr.write(`${line}\n`),
  };
}

let options: SandboxOptions | 'help';
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`${error.message}\n\n${HELP}`);
  process.exit(2);
}
if (options === 'help') {
  process.stdout.write(HELP);
  process.exit(0);
}

const sandbox = await startSandbox(options).catch((error: unknown) => {
  process.stderr.write(`The sandbox could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
process.stdout.write(`Checking-service sandbox listening on ${sandbox.url}\n`);
for (const user of sandbox.users) {
  const demo = user.email === DEMO_USER.email && user.password === DEMO_USER.password;
  process.stdout.write(`  user ${user.email}${demo ? ` (password ${DEMO_USER.password})` : ''}\n`);
}

let stopping = false;
function stop(signal: string): void {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`${signal}: stopping the sandbox\n`);
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
