// Every request the tool makes to an address a platform named (its configuration, registration endpoint, keys,
// token, AGS and NRPS URLs) goes through here, because a platform, or whoever pretends to be one during dynamic
// registration, chooses those addresses: without rules they make the tool a proxy into its own network
// (loopback admin ports, 169.254.169.254 cloud metadata, the school's private hosts) or hold it for ever.
// The rules: a deadline over headers and body together, a size limit on the answer, and a connection only to an
// address outside the forbidden ranges below unless the administrator allows that range
// (PLATFORM_PRIVATE_NETWORKS). The address is checked where the socket connects (a lookup hook on the undici
// Agent), so a name that resolves to a public address when checked and to 127.0.0.1 when used (DNS rebinding)
// still cannot reach loopback; redirects are followed by hand (GET only), each hop through the same check.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { parseCidr } from '../config/cidr.js';

export { parseCidr };

/** Address ranges no platform is expected at. IPv4-mapped IPv6 forms (::ffff:a.b.c.d) match the IPv4 rules. */
const FORBIDDEN_RANGES: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8, 'ipv4'], // RFC 1918
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT, RFC 6598
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata services (169.254.169.254)
  ['172.16.0.0', 12, 'ipv4'], // RFC 1918
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.168.0.0', 16, 'ipv4'], // RFC 1918
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 96, 'ipv6'], // unspecified, loopback (::1) and the old IPv4-compatible forms
  ['fe80::', 10, 'ipv6'], // link-local
  ['fc00::', 7, 'ipv6'], // unique local (fd00:ec2::254 is AWS's metadata service)
  ['ff00::', 8, 'ipv6'], // multicast
  ['64:ff9b::', 96, 'ipv6'], // NAT64: reaches IPv4 addresses through a gateway
];

const forbidden = new BlockList();
for (const [address, prefix, family] of FORBIDDEN_RANGES) forbidden.addSubnet(address, prefix, family);

let allowed = new BlockList();

/** Sets the private ranges platforms may be reached in (PLATFORM_PRIVATE_NETWORKS, default in config.ts); once at start-up. */
export function allowPlatformNetworks(cidrs: string[]): void {
  const next = new BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (!parsed) throw new Error(`Not a network in CIDR form: ${cidr}`);
    next.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  allowed = next;
}

/** Whether the tool may connect to this IP address for a platform. */
export function addressAllowed(address: string): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  return allowed.check(address, family) || !forbidden.check(address, family);
}

/**
 * For the tests only: origins whose requests go to another address, where a test serves them (the dev platform playing
 * hosted Canvas's SSO host, https://sso.canvaslms.com, on loopback). Every rule about a platform's addresses still reads
 * the address as the platform named it (a registration holds https://sso.canvaslms.com/api/lti/security/jwks, and the
 * shared issuer's rule compares against exactly that); only the connection goes elsewhere. Nothing in the tool sets
 * it: no setting reaches it, and without a call from a test it is empty.
 */
const testRoutes = new Map<string, string>();

/** Sends requests for `published` (an origin) to `servedAt` (an origin); null: to the published origin again. */
export function routeOriginForTests(published: string, servedAt: string | null): void {
  if (servedAt === null) testRoutes.delete(new URL(published).origin);
  else testRoutes.set(new URL(published).origin, new URL(servedAt).origin);
}

/** Where a request for `url` connects: the same address, unless a test routed its origin elsewhere. */
function connectTo(url: URL): URL {
  const servedAt = testRoutes.get(url.origin);
  return servedAt ? new URL(`${url.pathname}${url.search}`, servedAt) : url;
}

export type PlatformRequestFailure =
  'forbidden-address' | 'unreachable' | 'timeout' | 'too-slow' | 'too-large' | 'too-many-redirects' | 'bad-url';

/** A request that did not get an answer. `message` is a sentence for an administrator; it never quotes the answer. */
export class PlatformRequestError extends Error {
  constructor(
    readonly kind: PlatformRequestFailure,
    readonly host: string,
    message: string,
  ) {
    super(message);
    this.name = 'PlatformRequestError';
  }
}

class ForbiddenAddress extends Error {
  constructor(readonly address: string) {
    super(`the address ${address} is in a private or reserved network`);
    this.name = 'ForbiddenAddress';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup, refusing a name any of whose addresses is forbidden (an attacker's DNS may answer a mix). */
function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string; hints?: number },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true } as { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !addressAllowed(entry.address));
    if (refused)
      return callback(Object.assign(new ForbiddenAddress(refused.address), { code: 'EFORBIDDENADDRESS' }), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}

const agent = new Agent({ connect: { lookup: guardedLookup as never }, keepAliveTimeout: 10_000 });

export interface PlatformRequest {
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange: connecting, the headers and the last byte of the body. */
  timeoutMs?: number;
  maxBytes?: number;
  /** GET only; each hop passes the same address rules. */
  maxRedirects?: number;
  /**
   * Downloads only: the body is cut off when fewer than `bytes` of it arrived in the last `windowMs` (checked each
   * `windowMs` from the answer's headers). The deadline alone lets an answer that trickles hold its caller until the
   * end of it, and a download holds one of the few places the LMSs' files share.
   */
  minRate?: MinRate;
}

export interface MinRate {
  bytes: number;
  windowMs: number;
}

export interface PlatformAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The address that answered (differs from the one asked after a redirect). */
  url: string;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 1024 * 1024;

function causeOf(error: unknown): unknown {
  let current = error as { cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof ForbiddenAddress) return current;
    current = current.cause as { cause?: unknown } | undefined;
  }
  return error;
}

function forbiddenError(host: string, address: string): PlatformRequestError {
  return new PlatformRequestError(
    'forbidden-address',
    host,
    `The tool does not connect to ${host}: its address (${address}) is in a private, loopback or link-local network. An administrator who runs the LMS there can allow that network with PLATFORM_PRIVATE_NETWORKS.`,
  );
}

/** Refuses an address given as an IP literal before connecting: the socket does no lookup for those. */
function checkLiteral(url: URL): void {
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !addressAllowed(literal)) throw forbiddenError(url.host, literal);
}

/** Asks once (no redirects): the answer's status and headers, its body not yet read. */
async function exchange(
  url: URL,
  init: PlatformRequest,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Dispatcher.ResponseData> {
  const target = connectTo(url);
  checkLiteral(target);
  try {
    return await request(target, {
      method: init.method ?? 'GET',
      headers: init.headers ?? {},
      ...(init.body !== undefined ? { body: init.body } : {}),
      dispatcher: agent,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (error) {
    const cause = causeOf(error);
    if (cause instanceof ForbiddenAddress) throw forbiddenError(url.host, cause.address);
    if (signal.aborted)
      throw new PlatformRequestError('timeout', url.host, `${url.host} did not answer within ${timeoutMs / 1000} s.`);
    throw new PlatformRequestError('unreachable', url.host, `${url.host} could not be reached.`);
  }
}

/** Reads a body through `consume`, turning a broken or late body into a PlatformRequestError. */
async function readBody<T>(
  url: URL,
  response: Dispatcher.ResponseData,
  signal: AbortSignal,
  timeoutMs: number,
  consume: (body: Dispatcher.ResponseData['body']) => Promise<T>,
): Promise<T> {
  try {
    return await consume(response.body);
  } catch (error) {
    response.body.destroy();
    if (error instanceof PlatformRequestError) throw error;
    if (signal.aborted)
      throw new PlatformRequestError(
        'timeout',
        url.host,
        `${url.host} did not finish its answer within ${timeoutMs / 1000} s.`,
      );
    throw new PlatformRequestError('unreachable', url.host, `${url.host} broke off its answer.`);
  }
}

function tooLarge(url: URL, maxBytes: number): PlatformRequestError {
  return new PlatformRequestError(
    'too-large',
    url.host,
    `${url.host} answered with more than ${Math.round(maxBytes / 1024)} KB, more than this request needs.`,
  );
}

async function readText(
  url: URL,
  response: Dispatcher.ResponseData,
  signal: AbortSignal,
  timeoutMs: number,
  maxBytes: number,
): Promise<string> {
  return readBody(url, response, signal, timeoutMs, async (body) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge(url, maxBytes);
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  });
}

/** The address checked and the deadline and redirect budget set, as every request to a platform starts. */
function begin(
  address: string,
  init: PlatformRequest,
): { url: URL; timeoutMs: number; signal: AbortSignal; redirects: number } {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new PlatformRequestError('bad-url', '', 'The address the LMS gave is not a URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new PlatformRequestError(
      'bad-url',
      url.host,
      `The address the LMS gave for ${url.host} is not http or https.`,
    );
  const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    url,
    timeoutMs,
    signal: AbortSignal.timeout(timeoutMs),
    redirects: (init.method ?? 'GET') === 'GET' ? (init.maxRedirects ?? 3) : 0,
  };
}

/**
 * Follows the answer's redirect when it is one to follow: the next address and request, or null when this answer is
 * the one. A credential meant for one host is not handed to the host a redirect names.
 */
function redirectOf(
  url: URL,
  init: PlatformRequest,
  response: Dispatcher.ResponseData,
  hop: number,
  redirects: number,
): { url: URL; init: PlatformRequest } | null {
  const location = response.headers.location;
  if (response.statusCode < 300 || response.statusCode >= 400 || typeof location !== 'string' || redirects === 0)
    return null;
  if (hop >= redirects)
    throw new PlatformRequestError(
      'too-many-redirects',
      url.host,
      `${url.host} redirected more than ${redirects} times.`,
    );
  const next = new URL(location, url);
  if (next.protocol !== 'https:' && next.protocol !== 'http:')
    throw new PlatformRequestError(
      'bad-url',
      url.host,
      `${url.host} redirected to an address that is not http or https.`,
    );
  if (next.origin !== url.origin && init.headers) {
    init = {
      ...init,
      headers: Object.fromEntries(
        Object.entries(init.headers).filter(([name]) => name.toLowerCase() !== 'authorization'),
      ),
    };
  }
  return { url: next, init };
}

/** Asks, following redirects under the rules; the final answer with its body unread. */
async function answerOf(
  address: string,
  init: PlatformRequest,
): Promise<{ url: URL; response: Dispatcher.ResponseData; signal: AbortSignal; timeoutMs: number }> {
  const { url: first, timeoutMs, signal, redirects } = begin(address, init);
  let url = first;
  for (let hop = 0; ; hop += 1) {
    const response = await exchange(url, init, signal, timeoutMs);
    const next = redirectOf(url, init, response, hop, redirects);
    if (next === null) return { url, response, signal, timeoutMs };
    await response.body.dump();
    ({ url, init } = next);
  }
}

/**
 * One request to a platform under the rules above. Resolves with any HTTP status (the caller judges it);
 * rejects with a PlatformRequestError when no answer could be had within the rules.
 */
export async function platformRequest(address: string, init: PlatformRequest = {}): Promise<PlatformAnswer> {
  const { url, response, signal, timeoutMs } = await answerOf(address, init);
  const body = await readText(url, response, signal, timeoutMs, init.maxBytes ?? DEFAULT_MAX_BYTES);
  return { status: response.statusCode, headers: response.headers, body, url: url.toString() };
}

/** A download's answer: a 2xx's body went to the writer (its result in `written`); another status keeps its text. */
export type PlatformDownload<T> = { status: number; url: string; headers: PlatformAnswer['headers'] } & (
  { written: T } | { written: null; body: string }
);

/**
 * A download from a platform (a submitted file) under the same rules, its body streamed to `write` rather than
 * kept in memory, and cut off past `maxBytes` (a PlatformRequestError 'too-large'). The deadline covers the whole body.
 */
export async function platformDownload<T>(
  address: string,
  init: PlatformRequest,
  write: (body: AsyncIterable<Buffer>) => Promise<T>,
): Promise<PlatformDownload<T>> {
  const { url, response, signal, timeoutMs } = await answerOf(address, init);
  const common = { status: response.statusCode, url: url.toString(), headers: response.headers };
  if (response.statusCode < 200 || response.statusCode >= 300) {
    return {
      ...common,
      written: null,
      body: await readText(url, response, signal, timeoutMs, init.maxBytes ?? DEFAULT_MAX_BYTES),
    };
  }
  const maxBytes = init.maxBytes ?? DEFAULT_MAX_BYTES;
  let size = 0;
  async function* bounded(body: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge(url, maxBytes);
      yield chunk;
    }
  }
  const rate = init.minRate;
  let sizeBefore = 0;
  const watch =
    rate &&
    setInterval(() => {
      if (size - sizeBefore < rate.bytes) {
        const perSecond = Math.round(((rate.bytes / rate.windowMs) * 1000) / 1024);
        response.body.destroy(
          new PlatformRequestError(
            'too-slow',
            url.host,
            `${url.host} sent its answer slower than ${perSecond} KB/s over ${rate.windowMs / 1000} s.`,
          ),
        );
      }
      sizeBefore = size;
    }, rate.windowMs);
  try {
    return {
      ...common,
      written: await readBody(url, response, signal, timeoutMs, (body) =>
        write(bounded(body as AsyncIterable<Buffer>)),
      ),
    };
  } finally {
    if (watch) clearInterval(watch);
  }
}

/**
 * Checks, without asking it anything, that the tool may reach the host of a URL a platform names (dynamic
 * registration refuses a configuration whose keys, token or login URL it could never use). Where the URL is
 * fetched later the same rule is applied again at connection time, so a name that changes its address meanwhile
 * gains nothing.
 */
export async function assertPlatformAddress(address: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new PlatformRequestError('bad-url', '', 'The address the LMS gave is not a URL.');
  }
  url = connectTo(url);
  checkLiteral(url);
  if (isIP(url.hostname.replace(/^\[|\]$/g, ''))) return;
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) => {
    dnsLookup(url.hostname, { all: true }, (error, found) =>
      error
        ? reject(new PlatformRequestError('unreachable', url.host, `${url.host} has no address the tool can find.`))
        : resolve(found),
    );
  });
  const refused = addresses.find((entry) => !addressAllowed(entry.address));
  if (refused) throw forbiddenError(url.host, refused.address);
}
