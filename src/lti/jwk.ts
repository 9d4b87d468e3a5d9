// A platform's public key as its JWKS lists it (RFC 7517), read as far as the tool needs: the key id to pick it by
// and its type; the rest is kept for the verifier.
import { z } from 'zod';

export const jwk = z.object({ kid: z.string().optional(), kty: z.string() }).passthrough();

export type Jwk = z.infer<typeof jwk>;
