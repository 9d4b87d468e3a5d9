// The bad-input catalogue's id_tokens (test/support/bad-inputs.ts): forged, unsigned, expired, not yet valid, for
// another audience, deployment or issuer, replayed, missing claims, oversized or altered, each with the answer it
// must get, nothing written and the tool still up.
import { SignJWT, generateKeyPair } from 'jose';
import { launch } from '../../src/devplatform/agent.js';
import { launchClaims, payloadOf } from '../support/id-token.js';
import { type Answer, badInputTool, base64url, catalogue, lms } from '../support/bad-inputs.js';

badInputTool();

// ---- id_tokens ----

async function launchWith(
  replaceIdToken: (original: string) => Promise<string> | string,
  editForm?: (fields: Record<string, string>) => Record<string, string>,
): Promise<Answer> {
  const result = await launch(lms.platform, {
    userId: 'student-1',
    resourceLinkId: 'essay-1',
    replaceIdToken,
    ...(editForm ? { editForm } : {}),
  });
  return { status: result.status, body: result.body };
}
const signed = (overrides: Record<string, unknown>, options?: { expiresInSeconds?: number }) => () =>
  lms.platform.sign(launchClaims(lms.platform, overrides), options);
const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const without =
  (...names: string[]) =>
  () => {
    const claims = launchClaims(lms.platform);
    for (const name of names) delete claims[name];
    return lms.platform.sign(claims);
  };

catalogue('id_token', [
  {
    name: 'signed with another key',
    status: 401,
    send: () =>
      launchWith(async () =>
        new SignJWT(launchClaims(lms.platform))
          .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign((await generateKeyPair('RS256')).privateKey),
      ),
  },
  {
    name: 'unsigned (alg "none")',
    status: 401,
    send: () =>
      launchWith(
        () =>
          `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(launchClaims(lms.platform, { exp: Math.floor(Date.now() / 1000) + 300 }))}.`,
      ),
  },
  {
    name: 'signed with a shared secret (HS256)',
    status: 401,
    send: () =>
      launchWith(() =>
        new SignJWT(launchClaims(lms.platform))
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('guessed-secret-guessed-secret-32')),
      ),
  },
  {
    name: 'expired',
    status: 401,
    send: () => launchWith(signed({ iat: Math.floor(Date.now() / 1000) - 600 }, { expiresInSeconds: -60 })),
  },
  {
    name: 'not valid before an hour from now (nbf)',
    status: 401,
    send: () => launchWith(signed({ nbf: Math.floor(Date.now() / 1000) + 3600 })),
  },
  { name: 'for another audience', status: 403, send: () => launchWith(signed({ aud: 'someone-else' })) },
  {
    name: 'for a list of audiences without the tool',
    status: 403,
    send: () => launchWith(signed({ aud: ['someone-else', 'another-one'] })),
  },
  {
    name: 'for an unknown deployment',
    status: 403,
    send: () => launchWith(signed({ [`${CLAIM}/deployment_id`]: 'deployment-unknown' })),
  },
  {
    name: 'from another issuer than the login',
    status: 401,
    send: () => launchWith(signed({ iss: 'https://lms.elsewhere.example' })),
  },
  // The student launched before: a launch again writes no new row, and its id_token is then sent a second time.
  {
    name: 'replayed (its nonce was used)',
    status: 401,
    send: async () => {
      const first = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1' });
      return launchWith(() => first.idToken);
    },
  },
  { name: 'without a nonce', status: 401, send: () => launchWith(without('nonce')) },
  {
    name: 'without roles and version',
    status: 401,
    send: () => launchWith(without(`${CLAIM}/roles`, `${CLAIM}/version`)),
  },
  { name: 'without a deployment id', status: 401, send: () => launchWith(without(`${CLAIM}/deployment_id`)) },
  {
    name: 'of an unknown message type',
    status: 401,
    send: () => launchWith(signed({ [`${CLAIM}/message_type`]: 'LtiSomethingElseRequest' })),
  },
  { name: 'of LTI version 1.1', status: 401, send: () => launchWith(signed({ [`${CLAIM}/version`]: '1.1.0' })) },
  { name: 'oversized (70 KB of claims)', status: 413, send: () => launchWith(signed({ padding: 'x'.repeat(70_000) })) },
  { name: 'not a JWT at all', status: 401, send: () => launchWith(() => 'not-a-jwt') },
  {
    name: 'cut short (no signature)',
    status: 401,
    send: () => launchWith((original) => original.split('.').slice(0, 2).join('.')),
  },
  {
    name: 'with its payload altered after signing',
    status: 401,
    send: () =>
      launchWith((original) =>
        [
          original.split('.')[0],
          base64url({ ...payloadOf(original), sub: 'instructor-1' }),
          original.split('.')[2],
        ].join('.'),
      ),
  },
  {
    name: 'with no state',
    status: 400,
    send: () =>
      launchWith(
        (original) => original,
        ({ state: _state, ...rest }) => rest,
      ),
  },
  {
    name: 'with a state the tool never issued',
    status: 401,
    send: () =>
      launchWith(
        (original) => original,
        (fields) => ({ ...fields, state: 'not-issued-by-the-tool' }),
      ),
  },
]);
