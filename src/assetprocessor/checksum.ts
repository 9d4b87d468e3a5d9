// The checksum an LMS announces for an asset, read as what it is: the algorithm and the digest's bytes, decided by
// the field's name and the digest's length and alphabet, never by a guess of which LMS sent it.
// - Canvas: `sha256_checksum`, base64 of the SHA-256 digest (doc/api/document_processor.md, "Submission":
//   "cy5X2xVgjbMETnEFhDQvRMWfodOxsI51YpYNCtxjZig=").
// - Blackboard Learn Ultra: `checksum`, base64 of 16 bytes, an MD5 by its length (BBDN-LTI-Tool-Provider-Node
//   docs/pns.md: "B4b35OS5/BzXi1WreI6lSg=="); other tools send `checksum_algorithm` beside it (reported, not seen
//   in Blackboard's own material), which is honoured when it agrees with the length.
// - The specification's draft and the tool's earlier dev platform: hex.
// A checksum the tool cannot interpret is not a reason to refuse a student's file: the caller logs it and checks the
// file by its size and type. One it can interpret and that does not match refuses the download.
import { createHash, type Hash } from 'node:crypto';

export type ChecksumAlgorithm = 'sha256' | 'md5';

export interface DeclaredChecksum {
  algorithm: ChecksumAlgorithm;
  /** The digest, lower-case hex. */
  hex: string;
}

const DIGEST_BYTES: Record<ChecksumAlgorithm, number> = { sha256: 32, md5: 16 };
const HEX = /^[0-9a-fA-F]+$/;
/** Base64, or base64url, with its padding or without. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The digest's bytes, read as hex where it has the length of a digest in hex, else as base64. */
function digestBytes(value: string): Buffer | null {
  if (HEX.test(value) && (value.length === 2 * DIGEST_BYTES.sha256 || value.length === 2 * DIGEST_BYTES.md5))
    return Buffer.from(value, 'hex');
  if (!BASE64.test(value)) return null;
  const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  // Node's decoder skips what it cannot read: only a value that is exactly these bytes counts.
  return bytes.toString('base64').replace(/=+$/, '') === value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '')
    ? bytes
    : null;
}

/** An algorithm's name as LMSs write it ("SHA-256", "sha256", "MD5"), or null. */
function algorithmNamed(name: string): ChecksumAlgorithm | null {
  const plain = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return plain === 'sha256' ? 'sha256' : plain === 'md5' ? 'md5' : null;
}

/**
 * What an asset's checksum fields say, or null when they say nothing the tool can use. `sha256` is the standard
 * field (`sha256_checksum`); `other` and `algorithm` the dialect's (`checksum`, `checksum_algorithm`).
 */
export function readChecksum(fields: {
  sha256?: string | undefined;
  other?: string | undefined;
  algorithm?: string | undefined;
}): DeclaredChecksum | null {
  const value = (fields.sha256 ?? fields.other)?.trim();
  if (!value) return null;
  const bytes = digestBytes(value);
  if (!bytes) return null;
  const byLength = (Object.keys(DIGEST_BYTES) as ChecksumAlgorithm[]).find(
    (algorithm) => DIGEST_BYTES[algorithm] === bytes.length,
  );
  if (!byLength) return null;
  const named =
    fields.sha256 !== undefined
      ? 'sha256'
      : fields.algorithm !== undefined
        ? algorithmNamed(fields.algorithm)
        : byLength;
  return named === byLength ? { algorithm: byLength, hex: bytes.toString('hex') } : null;
}

/**
 * The check of a download against its declared checksum, fed the bytes as they stream in, so that the file is read
 * once: a SHA-256 is compared with the one every received file gets anyway (received-file.ts); another algorithm is
 * hashed on the way through.
 */
export class ChecksumCheck {
  readonly #hash: Hash | null;

  constructor(readonly declared: DeclaredChecksum) {
    this.#hash = declared.algorithm === 'sha256' ? null : createHash(declared.algorithm);
  }

  /** The body, unchanged, hashed as it passes. */
  async *through(body: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of body) {
      this.#hash?.update(chunk);
      yield chunk;
    }
  }

  /** Once the body has passed: whether it has the declared digest; `sha256` is its SHA-256 in hex. */
  matches(sha256: string): boolean {
    return (this.#hash ? this.#hash.digest('hex') : sha256.toLowerCase()) === this.declared.hex;
  }
}

/** As stored beside the asset: "<algorithm>:<hex>". */
export const storedChecksum = (declared: DeclaredChecksum | null): string | null =>
  declared ? `${declared.algorithm}:${declared.hex}` : null;

export function checksumFromStore(stored: string | null): DeclaredChecksum | null {
  const match = stored ? /^(sha256|md5):([0-9a-f]+)$/.exec(stored) : null;
  return match ? { algorithm: match[1] as ChecksumAlgorithm, hex: match[2]! } : null;
}
