// The dev platform's course and gradebook kept on disk (DATA_DIR/devplatform/state.json when the tool mounts it at
// /dev), so that the quick start survives a restart whole: the tool keeps its state in its database and the sandbox
// its own in DATA_DIR/sandbox; without this, the LMS's side came back empty while the tool still said what it had
// posted. Kept: its people, resource links, line items, gradebook cells, attempts, Canvas's results and post policies,
// the tool's notice handlers and the document processors attached. Not kept (a restart forgets them, as a new browser session would): access tokens,
// the request logs, submitted files and asset reports of the Asset Processor. Written whole after each change (to a
// new file renamed over the old), read back at start; a file that does not parse is set aside, not trusted.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { PlatformMemory } from './state.js';

const record = <T extends z.ZodTypeAny>(value: T) => z.array(z.tuple([z.string(), value]));
const loose = z.object({}).passthrough();

const stored = z.object({
  version: z.literal(1),
  people: record(loose),
  links: record(loose),
  lineItems: record(loose),
  scores: record(loose),
  attempts: record(z.number()),
  results: record(loose),
  postManually: z.array(z.string()),
  nextLineItemId: z.number().int().positive(),
  noticeHandlers: record(z.string()),
  assetProcessors: z.array(loose),
});

export interface PlatformStore {
  /** Writes the memory's kept parts now. */
  save(memory: PlatformMemory): void;
}

/** Fills `memory` from `file` when it holds a saved platform; says whether it did. */
export function restore(memory: PlatformMemory, file: string): boolean {
  if (!existsSync(file)) return false;
  const parsed = stored.safeParse(safeJson(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    renameSync(file, `${file}.unreadable-${Date.now()}`);
    return false;
  }
  const data = parsed.data;
  // The shapes are the platform's own, written by save() below.
  const into = <V>(map: Map<string, V>, entries: Array<[string, unknown]>) => {
    map.clear();
    for (const [key, value] of entries) map.set(key, value as V);
  };
  into(memory.people, data.people);
  into(memory.links, data.links);
  into(memory.lineItems, data.lineItems);
  into(memory.scores, data.scores);
  into(memory.attempts, data.attempts);
  into(memory.results, data.results);
  memory.postManually = new Set(data.postManually);
  into(memory.noticeHandlers, data.noticeHandlers);
  memory.nextLineItemId = data.nextLineItemId;
  memory.assetProcessors = data.assetProcessors as unknown as PlatformMemory['assetProcessors'];
  return true;
}

export function fileStore(file: string): PlatformStore {
  mkdirSync(dirname(file), { recursive: true });
  return {
    save(memory) {
      // The shape `stored` reads back.
      const data = {
        version: 1,
        people: [...memory.people],
        links: [...memory.links],
        lineItems: [...memory.lineItems],
        scores: [...memory.scores],
        attempts: [...memory.attempts],
        results: [...memory.results],
        postManually: [...memory.postManually],
        nextLineItemId: memory.nextLineItemId,
        noticeHandlers: [...memory.noticeHandlers],
        assetProcessors: memory.assetProcessors,
      };
      const next = `${file}.next`;
      writeFileSync(next, JSON.stringify(data));
      renameSync(next, file);
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
