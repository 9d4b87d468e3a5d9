// A network in CIDR form, as PLATFORM_PRIVATE_NETWORKS names them: read by the settings (config.ts) and by the rules
// that keep platform requests off private networks (lti/platform-http.ts). Apart from both so that reading the
// settings at start loads no HTTP client.
import { isIP } from 'node:net';

/** `a.b.c.d/n` or `x:y::/n`; null when malformed. */
export function parseCidr(value: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const match = value.trim().match(/^([^/]+)\/(\d{1,3})$/);
  if (!match) return null;
  const version = isIP(match[1]!);
  const prefix = Number(match[2]);
  if (version === 0 || prefix > (version === 4 ? 32 : 128)) return null;
  return { address: match[1]!, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}
