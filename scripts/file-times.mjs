// A reporter for node's test runner, beside the spec reporter in scripts/test.mjs: at the end of a pass it names the
// slowest test files, each with the time its top-level tests took (the time a file spends loading its modules is not
// in it), so that a slow suite says where its minutes go. `TEST_FILE_TIMES=all` lists every file.
//
// The times are also kept, by pass, in the file TEST_TIMES_KEPT names (scripts/test.mjs: .cache/test-times.json),
// from which the next run starts the slowest files first (slowestFirst below).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const SHOWN = 12;

export default async function* fileTimes(source) {
  const byFile = new Map();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    const file = event.data.file ? relative(process.cwd(), event.data.file) : '(no file)';
    byFile.set(file, (byFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
  }
  const slowest = [...byFile].sort((a, b) => b[1] - a[1]);
  if (slowest.length === 0) return;
  if (process.env.TEST_TIMES_KEPT) keep(process.env.TEST_TIMES_KEPT, process.env.TEST_DB ?? 'postgres', byFile);
  const shown = process.env.TEST_FILE_TIMES === 'all' ? slowest : slowest.slice(0, SHOWN);
  const total = slowest.reduce((sum, [, ms]) => sum + ms, 0);
  const which =
    shown.length < slowest.length
      ? `the ${shown.length} slowest (TEST_FILE_TIMES=all lists every one)`
      : 'slowest first';
  yield `\nTime in each file's tests, ${slowest.length} files, ${(total / 1000).toFixed(0)} s in all; ${which}:\n`;
  for (const [file, ms] of shown) yield `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`;
}

function readKept(path) {
  try {
    const kept = JSON.parse(readFileSync(path, 'utf8'));
    return kept && typeof kept === 'object' ? kept : {};
  } catch {
    return {};
  }
}

function keep(path, pass, byFile) {
  const kept = readKept(path);
  kept[pass] = { ...kept[pass], ...Object.fromEntries([...byFile].map(([file, ms]) => [file, Math.round(ms)])) };
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}`;
  writeFileSync(temporary, `${JSON.stringify(kept, null, 1)}\n`);
  renameSync(temporary, path);
}

/**
 * The pass's files, the slowest of the last run first (and those it did not run before all), so that no long file
 * starts last and runs on alone while the other places are idle; otherwise in the order given.
 */
export function slowestFirst(files, path, pass, base = process.cwd()) {
  const times = readKept(path)[pass] ?? {};
  const time = (file) => times[relative(base, resolve(base, file))] ?? Number.MAX_SAFE_INTEGER;
  return [...files].sort((a, b) => time(b) - time(a));
}
