// The dev platform hands out an LMS administrator's session to whoever opens it, so by default it answers only
// people on this machine. "On this machine" is judged from the TCP connection, never from what the request says:
//  - the peer address must be loopback. X-Forwarded-For and its kin are not read (the app does not set express's
//    `trust proxy`), so a forged header cannot make a remote client look local;
//  - a request that carries any forwarding header came through a proxy, and a proxy on this machine (nginx, Caddy)
//    connects from loopback on behalf of anyone: such a request is refused even though its peer is loopback;
//  - the Host header must name this machine (localhost, a loopback address) or PUBLIC_URL's host, so that a web
//    page elsewhere cannot reach it through a DNS name rebound to 127.0.0.1 in the local person's browser.
// A proxy that adds no forwarding header at all (a bare TCP relay, an SSH tunnel) cannot be told apart: whoever
// sets one up decides who may use it.
import type { Request, RequestHandler } from 'express';
import { isLoopbackAddress, isLoopbackName } from '../config/loopback.js';
import { sendMessage } from './views.js';

const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'via',
  'true-client-ip',
  'cf-connecting-ip',
];

/** The host name of a Host header, without its port (and without the brackets of an IPv6 literal). */
function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(header);
  if (bracketed) return bracketed[1]!;
  return header.replace(/:\d+$/, '');
}

/** Why a request does not come from a person on this machine, or null when it does. */
export function notLocal(req: Request, publicHost: string): string | null {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return 'remote peer';
  if (FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined)) return 'forwarded by a proxy';
  const host = hostName(req.headers.host)?.toLowerCase();
  if (!host || !(isLoopbackName(host) || host === publicHost.toLowerCase())) return 'foreign Host header';
  return null;
}

export function localClientsOnly(options: { publicUrl: string; what: string; switchName: string }): RequestHandler {
  const publicHost = new URL(options.publicUrl).hostname.replace(/^\[|\]$/g, '');
  return (req, res, next) => {
    if (notLocal(req, publicHost) === null) return next();
    sendMessage(
      res,
      403,
      'Only on this machine',
      `${options.what} answers only to a browser on the machine the tool runs on. To open it to the network, start the tool with ${options.switchName}.`,
    );
  };
}
