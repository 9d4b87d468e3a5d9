// The tool's key pair for one platform: the tool signs its service-token assertions (access-token.ts) and
// deep-linking answers with the private key, and publishes the public key at /lti/keys under the key id, where the
// platform fetches it (LTI Security Framework 6, https://www.imsglobal.org/spec/security/v1p0/#h_key-management).
// One pair per platform (RSA 4096, a random 32-hex-digit key id), kept in the platform's row: the private key sealed
// as the tool's other secrets are (secrets.ts), the public key derived from it when asked.
import { createPublicKey, generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { openSecret, sealSecret } from '../config/secrets.js';

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

/** The private key (PEM) of a stored pair. Throws when the ENCRYPTION_KEY is not the one it was sealed with. */
export function openPrivateKey(sealed: string, encryptionKey: string): string {
  return openSecret(sealed, encryptionKey);
}

/** The public key (SPKI PEM) of a private key. */
export function publicKeyOf(privateKeyPem: string): string {
  return createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
}
