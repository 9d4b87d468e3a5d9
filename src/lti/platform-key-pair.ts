// The tool's key pair for one platform: the tool signs its service-token assertions (access-token.ts) and
// deep-linking answers with the private key, and publishes the public key at /lti/keys under the key id, where the
// platform fetches it (LTI Security Framework 6, https://www.imsglobal.org/spec/security/v1p0/#h_key-management).
// One pair per platform, as ltijs made them (RSA 4096, a random 32-hex-digit key id), kept in the platform's row
// (migration 0031): the private key sealed as the tool's other secrets are (secrets.ts), the public key derived from
// it when asked.
import { createDecipheriv, createHash, createPublicKey, generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { openSecret, sealSecret } from '../secrets.js';

const generate = promisify(generateKeyPair);

/** A key pair as a platform's row keeps it. */
export interface StoredKeyPair {
  keyId: string;
  /** The private key (PEM), sealed. */
  privateKey: string;
}

/** A new key pair, sealed with the ENCRYPTION_KEY; generated off the event loop (RSA 4096 takes a while). */
export async function newKeyPair(encryptionKey: string): Promise<StoredKeyPair> {
  const { privateKey } = await generate('rsa', {
    modulusLength: 4096,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return { keyId: randomBytes(16).toString('hex'), privateKey: sealSecret(privateKey, encryptionKey) };
}

/** The sealed format of keys ltijs made before migration 0031: AES-256-CBC under sha256(ENCRYPTION_KEY), hex iv and data. */
export const LTIJS_SEALED = 'ltijs-cbc:';

/** The private key (PEM) of a stored pair. Throws when the ENCRYPTION_KEY is not the one it was sealed with. */
export function openPrivateKey(sealed: string, encryptionKey: string): string {
  if (!sealed.startsWith(LTIJS_SEALED)) return openSecret(sealed, encryptionKey);
  // ltijs sealed the record {key, kid} as JSON (ltijs 5.9.9 dist/Utils/Auth.js, generatePlatformKeyPair).
  const [iv = '', data = ''] = sealed.slice(LTIJS_SEALED.length).split(':');
  const decipher = createDecipheriv(
    'aes-256-cbc',
    createHash('sha256').update(encryptionKey).digest(),
    Buffer.from(iv, 'hex'),
  );
  const plain = Buffer.concat([decipher.update(Buffer.from(data, 'hex')), decipher.final()]).toString();
  return (JSON.parse(plain) as { key: string }).key;
}

/** The public key (SPKI PEM) of a private key. */
export function publicKeyOf(privateKeyPem: string): string {
  return createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
}
