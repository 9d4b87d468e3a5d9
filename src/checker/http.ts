// One request to the service: a timeout on the headers and on the body, typed errors, and for operations that
// are safe to repeat, retries with full-jitter exponential backoff that honour Retry-After.
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { CheckerError, kindOfStatus, type CheckerErrorKind } from './errors.js';

/** What a call does, as an observer of the calls sees it: a name, never a path (paths carry ids and report keys). */
export type CheckerOperation =
  | 'login'
  | 'list-folders'
  | 'create-folder'
  | 'update-folder'
  | 'delete-folder'
  | 'list-papers'
  | 'get-paper'
  | 'delete-paper'
  | 'upload'
  | 'report';

/** Hears every request sent to the service (each retry too): how long until its answer came, and how it ended. */
export type CheckerCallObserver = (call: {
  operation: CheckerOperation;
  outcome: 'ok' | CheckerErrorKind;
  seconds: number;
}) => void;

export interface Transport {
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  dispatcher?: Dispatcher;
  /** For tests: how long to sleep (defaults to setTimeout). */
  sleep?: (ms: number) => Promise<void>;
  observe?: CheckerCallObserver;
}

export interface CallOptions {
  operation: CheckerOperation;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  token?: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  body?: Readable;
  headers?: Record<string, string>;
  /** Safe to send again after a failure that may have reached the service. */
  idempotent: boolean;
  signal?: AbortSignal;
}

const MAX_BACKOFF_MS = 30_000;
const MAX_ERROR_BODY = 64 * 1024;

export function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.min(Math.max(0, seconds * 1000), 5 * 60_000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.min(Math.max(0, date - Date.now()), 5 * 60_000);
}

export function backoffMs(attempt: number, retryAfter?: number): number {
  const jittered = Math.random() * Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt);
  return retryAfter !== undefined ? Math.max(retryAfter, jittered) : jittered;
}

async function readSome(body: Dispatcher.ResponseData['body']): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    if (text.length < MAX_ERROR_BODY) text += (chunk as Buffer).toString('utf8');
  }
  return text.slice(0, MAX_ERROR_BODY);
}

function messageOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown; description?: unknown; error?: unknown };
    const message = body.message ?? body.error ?? body.description;
    return typeof message === 'string' ? message.slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}

/** Sends once; returns the response (2xx) with its body still to read, or throws a CheckerError. */
async function once(transport: Transport, call: CallOptions): Promise<Dispatcher.ResponseData> {
  const url = new URL(call.path, transport.baseUrl);
  for (const [key, value] of Object.entries(call.query ?? {}))
    if (value !== undefined) url.searchParams.set(key, String(value));
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: call.method,
      headers: {
        accept: 'application/json, application/pdf',
        ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
        ...(call.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...call.headers,
      },
      body: call.json !== undefined ? JSON.stringify(call.json) : (call.body ?? null),
      headersTimeout: transport.timeoutMs,
      bodyTimeout: transport.timeoutMs,
      ...(call.signal ? { signal: call.signal } : {}),
      ...(transport.dispatcher ? { dispatcher: transport.dispatcher } : {}),
    });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.includes('TIMEOUT')) throw new CheckerError('timeout', null, `${call.method} ${url.pathname}`);
    throw new CheckerError('network', null, `${call.method} ${url.pathname}: ${code || (error as Error).message}`);
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response;
  const text = await readSome(response.body).catch(() => '');
  throw new CheckerError(
    kindOfStatus(response.statusCode),
    response.statusCode,
    messageOf(text) ?? `HTTP ${response.statusCode}`,
    retryAfterMs(response.headers['retry-after']),
  );
}

export async function send(transport: Transport, call: CallOptions): Promise<Dispatcher.ResponseData> {
  const sleep = transport.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt += 1) {
    const started = performance.now();
    const observe = (outcome: 'ok' | CheckerErrorKind) =>
      transport.observe?.({ operation: call.operation, outcome, seconds: (performance.now() - started) / 1000 });
    try {
      const response = await once(transport, call);
      observe('ok');
      return response;
    } catch (error) {
      observe(error instanceof CheckerError ? error.kind : 'network');
      // A request that may have reached the service is repeated only when repeating it is harmless.
      const mayRepeat =
        call.idempotent ||
        (error instanceof CheckerError &&
          (error.kind === 'rate-limited' || error.kind === 'unavailable') &&
          call.body === undefined);
      // A failure that may pass (the service refused for now, or the answer was lost) is worth another try.
      const mayPass = error instanceof CheckerError && (error.failure === 'transient' || error.failure === 'lost');
      if (!mayPass || !mayRepeat || attempt >= transport.maxRetries) throw error;
      await sleep(backoffMs(attempt, error.retryAfterMs));
    }
  }
}

export async function sendJson(transport: Transport, call: CallOptions): Promise<unknown> {
  const response = await send(transport, call);
  let text: string;
  try {
    text = await response.body.text();
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    throw new CheckerError(
      code.includes('TIMEOUT') ? 'timeout' : 'network',
      response.statusCode,
      'the answer was cut off',
    );
  }
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new CheckerError('bad-response', response.statusCode, 'the answer is not JSON');
  }
}
