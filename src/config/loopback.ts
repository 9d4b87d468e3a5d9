// Which addresses and host names mean "this machine only". Used for the defaults (where the tool listens, whether
// dynamic registration waits for approval) and for the dev platform's per-request check.
import { isIP } from 'node:net';

/** The loopback addresses the tool listens on by default outside production: IPv4 and IPv6, since `localhost` may
 * resolve to either (browsers try ::1 first on many systems). */
export const LOOPBACK_HOSTS = ['127.0.0.1', '::1'] as const;

/** An IP address of the loopback interface: 127.0.0.0/8, ::1, or 127.x written as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^\[|\]$/g, '');
  const v4 = plain.toLowerCase().startsWith('::ffff:') ? plain.slice(7) : plain;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  if (isIP(plain) === 6) return /^(0{0,4}:){7}0{0,3}1$|^::1$/.test(plain.toLowerCase());
  return false;
}

/** A host name (no port) that only ever means this machine: localhost, *.localhost (RFC 6761) or a loopback IP. */
export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}
