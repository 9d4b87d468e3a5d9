// The address a request comes from, as a throttle counts it (the /admin token's, web/admin-throttle.ts; dynamic
// registrations', web/registration.ts). Behind a reverse proxy the socket's peer is the proxy, the same for everyone;
// the proxy says whom it forwards in X-Forwarded-For, appending the address it was reached from. So the addresses are
// read from the right: the peer, then each forwarded one, for as long as each is a proxy the administrator trusts
// (TRUSTED_PROXIES); the first that is not is the client. What a client writes into the header itself sits left of
// its own address and is never reached, so it cannot pose as another; with no trusted proxy the header is not read.
import type { Request } from 'express';
import { BlockList, isIP } from 'node:net';
import { parseCidr } from '../config/cidr.js';

/** Forwarded addresses read at most: a longer chain is no proxy's, and the last of them counts. */
const MAX_HOPS = 20;

/** The client's address of a request, under these trusted proxies (CIDRs); the peer's when none are set. */
export function clientAddressOf(trustedProxies: readonly string[]): (req: Request) => string {
  const trusted = new BlockList();
  for (const cidr of trustedProxies) {
    const network = parseCidr(cidr);
    if (network) trusted.addSubnet(network.address, network.prefix, network.family);
  }
  const isTrusted = (address: string) => {
    const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    const family = isIP(plain);
    return family !== 0 && trusted.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
  return (req) => {
    let address = req.socket.remoteAddress ?? 'unknown';
    if (trustedProxies.length === 0 || !isTrusted(address)) return address;
    const header = req.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .slice(-MAX_HOPS);
    while (forwarded.length > 0 && isTrusted(address)) address = forwarded.pop()!;
    return address;
  };
}
