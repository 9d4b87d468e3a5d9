// A replacement for pglite-socket's query queue that keeps each connection's extended-protocol messages together.
//
// PGlite is one backend with one unnamed prepared statement. pglite-socket 0.2.17 queues every protocol message
// on its own, so under concurrency connection A's Parse, connection B's Parse and A's Bind interleave, and A's
// query fails ("bind message supplies 2 parameters, but prepared statement "" requires 4") or, worse, runs B's
// statement. This queue holds a connection's messages until its Sync (or a simple Query) and runs the whole
// batch at once; while a connection has a transaction open, only its batches run, as pglite-socket does.
import type { PGlite } from '@electric-sql/pglite';

type OnData = (data: Uint8Array) => void;
interface Batch {
  handlerId: number;
  messages: Array<{ message: Uint8Array; onData: OnData }>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'
const FLUSH = 0x48; // 'H'

/** Message types that end a batch: the server answers them, so the client waits for that answer. */
function endsBatch(message: Uint8Array): boolean {
  const type = message[0];
  // A startup packet has no type byte: it begins with its length, whose first byte is 0 for any sane size.
  return type === SYNC || type === QUERY || type === TERMINATE || type === FLUSH || type === 0;
}

export class BatchingQueryQueue {
  #pending = new Map<number, Array<{ message: Uint8Array; onData: OnData }>>();
  #batches: Batch[] = [];
  #running = false;
  #owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  /** Called by the socket handler for each message; resolves once the message is queued or, at a batch end, run. */
  enqueue(handlerId: number, message: Uint8Array, onData: OnData): Promise<number> {
    const held = this.#pending.get(handlerId) ?? [];
    held.push({ message, onData });
    if (!endsBatch(message)) {
      this.#pending.set(handlerId, held);
      return Promise.resolve(0);
    }
    this.#pending.delete(handlerId);
    return new Promise<number>((resolve, reject) => {
      this.#batches.push({ handlerId, messages: held, resolve: () => resolve(0), reject });
      void this.#run();
    });
  }

  async #run(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      for (;;) {
        const index =
          this.db.isInTransaction() && this.#owner !== null
            ? this.#batches.findIndex((b) => b.handlerId === this.#owner)
            : 0;
        const batch = index >= 0 ? this.#batches[index] : undefined;
        if (!batch) break; // empty, or waiting for the transaction owner's next batch
        this.#batches.splice(index, 1);
        try {
          await this.db.runExclusive(async () => {
            for (const { message, onData } of batch.messages)
              await this.db.execProtocolRawStream(message, { onRawData: onData });
          });
          this.#owner = batch.handlerId;
          batch.resolve();
        } catch (error) {
          batch.reject(error);
        }
      }
    } finally {
      this.#running = false;
    }
  }

  getQueueLength(): number {
    return this.#batches.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.#pending.delete(handlerId);
    this.#batches = this.#batches.filter((batch) => {
      if (batch.handlerId !== handlerId) return true;
      batch.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection that drops inside its transaction must not leave the one backend stuck in it. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.db.isInTransaction() && this.#owner === handlerId) {
      await this.db.exec('ROLLBACK');
      this.#owner = null;
      void this.#run();
    }
  }
}
