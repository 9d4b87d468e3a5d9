// What a log line costs the tool's process: CPU per record through the tool's own logger (src/observe/logger.ts, every
// secret's field redacted wherever it appears) beside the same pino without redaction, in the same run, for the
// records the tool writes most (a request's line, a callback's, a refusal's, an error's); and what the request log
// (app.ts) adds to each request at the default level, where its line is not written, and at LOG_LEVEL=debug. The
// destination takes each line and drops it, so a figure is the logger's work, not the write to stdout.
//   node --import tsx bench/logging.ts [RECORDS]
import { EventEmitter } from 'node:events';
import pino from 'pino';
import type { Request, RequestHandler, Response } from 'express';
import { createLogger, type Logger } from '../src/observe/logger.js';
import { requestLog } from '../src/web/request-log.js';

const records = Number(process.argv[2] ?? 100_000);
const ROUNDS = 5;

const dropped: pino.DestinationStream = { write: () => undefined };

const withRedaction = (level: string) => createLogger({ level, destination: dropped });
/** The tool's logger without its redaction: the anchor. */
const withoutRedaction = (level: string): Logger => pino({ level, base: { pid: process.pid } }, dropped);

/** Microseconds of CPU per call of `work`, after a warm-up of a tenth as many. */
function cpuPerCall(work: (i: number) => void): number {
  for (let i = 0; i < records / 10; i += 1) work(i);
  const before = process.cpuUsage();
  for (let i = 0; i < records; i += 1) work(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / records;
}

const failure = Object.assign(new Error('The gradebook answered 503'), { code: 'PLATFORM_UNAVAILABLE', status: 503 });

/** The records, as the tool writes them. */
const lines: Array<[string, (logger: Logger, i: number) => void]> = [
  [
    "a request's line (app.ts)",
    (logger, i) => logger.info({ method: 'GET', path: `/assignments/a${i % 100}`, status: 200, ms: 3 }, 'request'),
  ],
  [
    "a callback's line (callback-route.ts)",
    (logger, i) =>
      logger.info({ paperId: i, failed: false, known: true }, 'Callback received; result read-back queued'),
  ],
  [
    "a refused launch's line",
    (logger) => logger.warn({ path: '/lti/launch', reason: 'IDTOKEN_NOT_FOUND_DB' }, 'LTI launch refused'),
  ],
  [
    'an error with its cause',
    (logger) => logger.error({ err: failure, job: { queue: 'grade-push', attempt: 2 } }, 'Grade push failed'),
  ],
];

/** A request through the request log alone: its middleware, then the answer's `finish`. */
function oneRequest(middleware: RequestHandler): (i: number) => void {
  const req = { method: 'GET', originalUrl: '/assignments/a1?ltik=x' } as Request;
  return () => {
    const res = Object.assign(new EventEmitter(), { statusCode: 200 }) as unknown as Response;
    middleware(req, res, () => undefined);
    res.emit('finish');
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const us = (value: number) => `${value.toFixed(2)} µs`;

console.log(`Node ${process.version}, ${records} records a round, median of ${ROUNDS} rounds, CPU per record\n`);
console.log('| record | redacted (the tool) | not redacted | redaction adds |');
console.log('|---|---|---|---|');
for (const [name, write] of lines) {
  const redacted: number[] = [];
  const plain: number[] = [];
  // Alternated, so that the machine's moods fall on both alike.
  for (let round = 0; round < ROUNDS; round += 1) {
    const tool = withRedaction('info');
    const anchor = withoutRedaction('info');
    redacted.push(cpuPerCall((i) => write(tool, i)));
    plain.push(cpuPerCall((i) => write(anchor, i)));
  }
  console.log(`| ${name} | ${us(median(redacted))} | ${us(median(plain))} | ${us(median(redacted) - median(plain))} |`);
}

console.log('\n| request log, per request | LOG_LEVEL=info (the default: no line) | LOG_LEVEL=debug (a line) |');
console.log('|---|---|---|');
const atInfo: number[] = [];
const atDebug: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  atInfo.push(cpuPerCall(oneRequest(requestLog(withRedaction('info')))));
  atDebug.push(cpuPerCall(oneRequest(requestLog(withRedaction('debug')))));
}
console.log(`| the middleware and its line | ${us(median(atInfo))} | ${us(median(atDebug))} |`);
