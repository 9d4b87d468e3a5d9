// The database did not answer (it is down, restarting, or the network to it broke): the request is not at fault and
// nothing of it was committed, so the answer is 503 and the sender may try again. Told apart from the tool's own
// failures (500) by what PostgreSQL and the pg driver report:
// - SQLSTATE class 08 (connection exception) and 57P01-57P03 (the server shutting down or not yet accepting);
//   https://www.postgresql.org/docs/current/errcodes-appendix.html
// - the socket's own errors, and the driver's sentences for a connection that broke or never came.
const SQLSTATE = /^(08|57P0[1-3])/;
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTCONN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const DRIVER_SENTENCES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|ended by the other party|Connection refused/i;

export function isDatabaseUnreachable(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code);
  return (
    SQLSTATE.test(code) || SOCKET_CODES.has(code) || DRIVER_SENTENCES.test(String((error as Error | null)?.message))
  );
}
