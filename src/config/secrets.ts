// Secrets the tool stores (service passwords) are sealed with AES-256-GCM under a key derived from
// ENCRYPTION_KEY; tampering or the wrong key makes opening fail rather than return garbage.
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const deriveKey = (encryptionKey: string) =>
  createHash('sha256').update(`originality-lti:secrets:${encryptionKey}`).digest();

export function sealSecret(plain: string, encryptionKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(encryptionKey), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url')).join('.');
}

export function openSecret(sealed: string, encryptionKey: string): string {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !data) throw new Error('A stored secret is damaged.');
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(encryptionKey), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

/**
 * Whether a secret someone sent is the expected one, in time that depends on neither (both are hashed first, so
 * not even the length shows), against guessing it a character at a time from the answer's timing.
 */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
