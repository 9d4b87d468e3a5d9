// CPU per call of the cryptography a launch and a deep-linking answer cost, done as ltijs 5.9.9 does it (its own
// dependencies: rasha turns the platform's JWK into PEM on every launch, jsonwebtoken verifies and signs with the PEM)
// beside the tool's own code (lti/platform-token.ts's verifier, which keeps the key objects it makes; jose signing
// as lti/access-token.ts signs, making the key object each time, and with the key object kept).
// One process, no I/O: what each way costs the CPU, for docs/architecture.md ("What ltijs still does").
//   node --import tsx bench/ltijs-parts.ts [ITERATIONS]
import { createRequire } from 'node:module';
import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, jwtVerify } from 'jose';
import { verifyPlatformToken } from '../src/lti/platform-token.js';
import { cpuPerCall as cpuOf } from './cpu-per-call.js';

const fromLtijs = createRequire(createRequire(import.meta.url).resolve('ltijs'));
const jsonwebtoken = fromLtijs('jsonwebtoken') as {
  sign(body: object, key: string, options: object): string;
  verify(token: string, key: string, options: object): object;
};
const Rasha = fromLtijs('rasha') as { export(options: { jwk: object }): Promise<string> };

const iterations = Number(process.argv[2] ?? 400);

/** CPU per call of `work`, at this run's number of calls (cpu-per-call.ts). */
const cpuPerCall = (work: () => unknown) => cpuOf(work, iterations);

const platformKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...(await exportJWK(platformKeys.publicKey)), kty: 'RSA', kid: 'platform-key', alg: 'RS256' };
const issuer = 'https://lms.example';
const clientId = 'tool-client';
const now = Math.floor(Date.now() / 1000);
const idToken = await new SignJWT({
  nonce: randomUUID(),
  'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiResourceLinkRequest',
})
  .setProtectedHeader({ alg: 'RS256', kid: 'platform-key' })
  .setIssuer(issuer)
  .setAudience(clientId)
  .setSubject('student-1')
  .setIssuedAt(now)
  .setExpirationTime(now + 3600)
  .sign(platformKeys.privateKey);

const toolKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const toolPem = toolKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const answer = {
  iss: clientId,
  aud: issuer,
  nonce: randomUUID(),
  'https://purl.imsglobal.org/spec/lti-dl/claim/content_items': [
    { type: 'ltiResourceLink', title: 'Essay', url: 'https://tool.example/lti/launch' },
  ],
};
const secret = 'an encryption key of the tool, 32 bytes or more....';
const ltik = jsonwebtoken.sign(
  { platformUrl: issuer, clientId, deploymentId: 'd1', contextId: 'c1', user: 'student-1', s: 'state' },
  secret,
  {},
);

const ltikKey = new TextEncoder().encode(secret);
const signKey = createPrivateKey(toolPem);

/** Each row: as ltijs does it, then with jose: the key object made for each call, and made once and kept. */
const rows: Array<[string, number, number, number]> = [
  [
    "a launch's id_token verified with the platform's JWK",
    await cpuPerCall(async () =>
      jsonwebtoken.verify(idToken, await Rasha.export({ jwk }), {
        algorithms: ['RS256'],
        clockTimestamp: Date.now() / 1000,
      }),
    ),
    // A copy is a key set fetched anew: its key object is made again.
    await cpuPerCall(() => verifyPlatformToken(idToken, { ...jwk }, { issuer, clientId, clockToleranceSeconds: 0 })),
    await cpuPerCall(() => verifyPlatformToken(idToken, jwk, { issuer, clientId, clockToleranceSeconds: 0 })),
  ],
  [
    'a deep-linking answer signed with the stored private key (PEM)',
    await cpuPerCall(() =>
      jsonwebtoken.sign(answer, toolPem, { algorithm: 'RS256', expiresIn: 60, keyid: 'tool-key' }),
    ),
    await cpuPerCall(() =>
      new SignJWT(answer)
        .setProtectedHeader({ alg: 'RS256', kid: 'tool-key' })
        .setIssuedAt()
        .setExpirationTime('60s')
        .sign(createPrivateKey(toolPem)),
    ),
    await cpuPerCall(() =>
      new SignJWT(answer)
        .setProtectedHeader({ alg: 'RS256', kid: 'tool-key' })
        .setIssuedAt()
        .setExpirationTime('60s')
        .sign(signKey),
    ),
  ],
  [
    'the session token (ltik) verified, HS256',
    await cpuPerCall(() => jsonwebtoken.verify(ltik, secret, {})),
    await cpuPerCall(() => jwtVerify(ltik, new TextEncoder().encode(secret))),
    await cpuPerCall(() => jwtVerify(ltik, ltikKey)),
  ],
];

console.log(`CPU per call, microseconds (${iterations} calls each, Node ${process.version})`);
console.log('| what | as ltijs does it | jose, key object made each call | jose, key object kept |');
console.log('|---|---|---|---|');
for (const [what, ...figures] of rows) console.log(`| ${what} | ${figures.map((us) => us.toFixed(0)).join(' | ')} |`);
