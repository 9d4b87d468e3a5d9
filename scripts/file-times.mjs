// A reporter for node's test runner, beside the spec reporter in scripts/test.mjs: at the end of a pass it names the
// slowest test files, each with the time its top-level tests took (the time a file spends loading its modules is not
// in it), so that a slow suite says where its minutes go. `TEST_FILE_TIMES=all` lists every file.
import { relative } from 'node:path';

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
  const shown = process.env.TEST_FILE_TIMES === 'all' ? slowest : slowest.slice(0, SHOWN);
  const total = slowest.reduce((sum, [, ms]) => sum + ms, 0);
  const which =
    shown.length < slowest.length
      ? `the ${shown.length} slowest (TEST_FILE_TIMES=all lists every one)`
      : 'slowest first';
  yield `\nTime in each file's tests, ${slowest.length} files, ${(total / 1000).toFixed(0)} s in all; ${which}:\n`;
  for (const [file, ms] of shown) yield `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`;
}
