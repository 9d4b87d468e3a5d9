// Probing the tool from outside: the status a request gets (or why none came), a request with a Host header of
// our choosing, and this machine's address as another machine on the network would use it.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';

/** An IPv4 address of this machine that is not loopback, or undefined when it has none. */
export const otherAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

/** The status of a GET, or the connection error's code (ECONNREFUSED) when nothing answers. */
export async function statusOf(url: string, headers: Record<string, string> = {}): Promise<number | string> {
  try {
    const response = await fetch(url, { headers, redirect: 'manual' });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    return String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message);
  }
}

/** The status of a GET with a Host header of our choosing (fetch does not let a script set Host). */
export function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A raw connection to the tool on `port` that has sent `head` (and `body`, if any) and then goes quiet: a request the
 * tool counts in flight until it answers or the test closes the socket. Resolves once the tool has taken it in.
 */
export async function quietClient(
  port: number,
  head: string,
  body = '',
): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head + body);
  // Let the server take the request in (and count it in flight) before the test goes on.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { socket, received: () => received, closed };
}
