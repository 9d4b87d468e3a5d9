// CPU per call of the ltik's HS256 signature, which every launch makes once (lti/launch-session.ts) and every page
// checks once (lti/session.ts): through jose with the key kept, as the tool does it, beside node:crypto's HMAC of
// the same bytes, compared in constant time (the anchor). jose takes Node's WebCrypto for HMAC, a job handed to
// libuv's thread pool and awaited; createHmac is one synchronous call. One process, no I/O.
//   node --import tsx bench/session-token.ts [ITERATIONS]
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { cpuPerCall as cpuOf } from './cpu-per-call.js';

const iterations = Number(process.argv[2] ?? 5000);
const ROUNDS = 5;

const secret = randomBytes(24).toString('hex');
const key = new TextEncoder().encode(secret);
/** The claims an ltik carries, at their usual size. */
const claims = {
  platformUrl: 'https://lms.example.edu',
  clientId: 'a1b2c3d4e5f6',
  deploymentId: '1',
  platformCode: 'f0e1d2c3b4a5968778695a4b3c2d1e0f',
  contextId: 'course-1234',
  user: 'student-42',
  s: 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6',
};

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hmac = (input: string) => createHmac('sha256', key).update(input).digest();

function signWithHmac(): string {
  const input = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ ...claims, iat: Math.floor(Date.now() / 1000) })}`;
  return `${input}.${hmac(input).toString('base64url')}`;
}

function verifyWithHmac(token: string): unknown {
  const end = token.lastIndexOf('.');
  const given = Buffer.from(token.slice(end + 1), 'base64url');
  const expected = hmac(token.slice(0, end));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('bad signature');
  return JSON.parse(Buffer.from(token.slice(token.indexOf('.') + 1, end), 'base64url').toString());
}

const signWithJose = () => new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().sign(key);

/** CPU per call of `work`, at this run's number of calls (cpu-per-call.ts). */
const cpuPerCall = (work: () => unknown) => cpuOf(work, iterations);

const token = await signWithJose();
if (JSON.stringify(verifyWithHmac(token)) !== JSON.stringify((await jwtVerify(token, key)).payload))
  throw new Error('The two ways read different claims');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rows: Array<[string, () => unknown, () => unknown]> = [
  ['sign', signWithJose, signWithHmac],
  ['verify', () => jwtVerify(token, key, { algorithms: ['HS256'] }), () => verifyWithHmac(token)],
];
console.log(`CPU per call, µs (${iterations} calls a round, median of ${ROUNDS} rounds, Node ${process.version})`);
console.log('| the ltik | jose, key kept (the tool) | node:crypto createHmac |');
console.log('|---|---|---|');
for (const [what, jose, plain] of rows) {
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    a.push(await cpuPerCall(jose));
    b.push(await cpuPerCall(plain));
  }
  console.log(`| ${what} | ${median(a).toFixed(0)} | ${median(b).toFixed(0)} |`);
}
