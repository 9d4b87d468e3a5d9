// Loaded into the tool's process by the benchmarks (`--import bench/meter.mjs`): counts what each operation costs
// the tool. Every statement any `pg` client of the process sends (the tool's pool, pg-boss's, ltijs's storage),
// the commits among them, the process's CPU time, the HTTP answers it finished and the writes it handed to its
// sockets (each a system call: an answer written in pieces shows as more than one per answer), served as JSON over a Unix socket that the benchmark reads
// before and after a measured phase (BENCH_METER_SOCKET names it). It also profiles the process's CPU over a
// phase on request (`--cpu-prof` is not allowed in NODE_OPTIONS): ?profile=start, then ?profile=stop answers
// the profile; and it times the socket writes on request (?time-writes=1).
//
// A commit here is a transaction that wrote: a COMMIT after a write, or a write outside a transaction (each is
// its own). Those are what cost PostgreSQL a WAL flush; a read on its own costs a round trip, counted as a statement.
//
// Plain JavaScript, so that the process it measures needs no TypeScript loader (the tool runs built, as npm start
// runs it); its answer's shape is MeterReading in lib.ts.
import { subscribe } from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import { rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { Session } from 'node:inspector/promises';
import pg from 'pg';

const counts = {
  statements: 0,
  commits: 0,
  answers: 0,
  serverWrites: 0,
  otherWrites: 0,
  /** Time inside the writes, when timed: the wall clock, and the process's CPU (every thread's, so an upper bound). */
  writeWallMs: 0,
  writeCpuMs: 0,
};
/** The meter's own server: its answers and writes are not the process's work. */
let meterServer = null;
/** Statements by their first 120 characters. */
const texts = new Map();

const READ = /^\s*(select|show|values|explain)\b/i;
const LOCKS = /\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i;
const WITH_WRITE = /\b(insert|update|delete)\b/i;

function writes(text) {
  if (/^\s*with\b/i.test(text)) return WITH_WRITE.test(text);
  return !READ.test(text) || LOCKS.test(text);
}

/** Per client: the transaction it has open, and whether it wrote. */
const inTransaction = new WeakMap();

function count(client, text) {
  counts.statements += 1;
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 120);
  texts.set(key, (texts.get(key) ?? 0) + 1);
  if (/^\s*(begin|start\s+transaction)\b/i.test(text)) {
    // One text that opens and ends its own transaction (pg-boss sends its set-up so) is one transaction.
    if (/\bcommit\s*;?\s*$/i.test(text)) {
      if (WITH_WRITE.test(text)) counts.commits += 1;
      return;
    }
    inTransaction.set(client, { wrote: false });
    return;
  }
  const open = inTransaction.get(client);
  if (/^\s*(commit|end)\b/i.test(text)) {
    if (open?.wrote) counts.commits += 1;
    inTransaction.delete(client);
    return;
  }
  if (/^\s*rollback\b/i.test(text) && !/^\s*rollback\s+to\b/i.test(text)) {
    inTransaction.delete(client);
    return;
  }
  if (!writes(text)) return;
  if (open) open.wrote = true;
  else counts.commits += 1;
}

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function metered(...args) {
  const first = args[0];
  const text = typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : null;
  if (text !== null) count(this, text);
  return query.apply(this, args);
};

// Every write a socket hands to libuv passes here, one call per system call (a corked or queued batch goes as one
// writev). A socket an HTTP server accepted is the answers' (`socket.server`); the rest are the process's own
// connections: the database, the LMS's and the service's addresses. On request (?time-writes=1) it also times
// them, which tells a CPU profile's share in writev apart from what the writes cost: a sampling profiler counts
// the wall clock, and a write on loopback wakes the process that reads it, which on a busy machine may take the
// writer's core for a while. Off by default: reading the process's CPU twice a write costs more than counting.
let timingWrites = false;
const writeGeneric = Socket.prototype._writeGeneric;
Socket.prototype._writeGeneric = function metered(...args) {
  if (this.connecting || this.server === meterServer) return writeGeneric.apply(this, args);
  if (this.server) counts.serverWrites += 1;
  else counts.otherWrites += 1;
  if (!timingWrites) return writeGeneric.apply(this, args);
  const wall = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  try {
    return writeGeneric.apply(this, args);
  } finally {
    const used = process.cpuUsage(cpu);
    counts.writeCpuMs += (used.user + used.system) / 1000;
    counts.writeWallMs += Number(process.hrtime.bigint() - wall) / 1e6;
  }
};

subscribe('http.server.response.finish', ({ server }) => {
  if (server !== meterServer) counts.answers += 1;
});

function reading(withTexts) {
  const cpu = process.cpuUsage();
  return {
    ...counts,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ...(withTexts ? { texts: [...texts].sort((a, b) => b[1] - a[1]) } : {}),
  };
}

let profiler = null;

async function profile(action) {
  if (action === 'start') {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
    return { started: true };
  }
  if (!profiler) return { error: 'not profiling' };
  const { profile: taken } = await profiler.post('Profiler.stop');
  profiler.disconnect();
  profiler = null;
  return taken;
}

const socket = process.env.BENCH_METER_SOCKET;
// The tool's own children (PGlite initialises a new data directory in one) inherit NODE_OPTIONS and so load this
// too: they must not take over the socket, which they would remove when they exit.
delete process.env.BENCH_METER_SOCKET;
if (socket) {
  rmSync(socket, { force: true });
  const server = (meterServer = createServer((req, res) => {
    const asked = new URL(req.url ?? '/', 'http://meter').searchParams;
    res.setHeader('content-type', 'application/json');
    if (asked.has('time-writes')) timingWrites = asked.get('time-writes') === '1';
    const action = asked.get('profile');
    if (action) {
      profile(action).then(
        (answer) => res.end(JSON.stringify(answer)),
        (error) => res.end(JSON.stringify({ error: String(error) })),
      );
      return;
    }
    res.end(JSON.stringify(reading(asked.has('texts'))));
    if (asked.has('reset')) texts.clear();
  }));
  server.listen(socket);
  server.unref();
}
