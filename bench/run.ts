// `npm run bench`: every benchmark, each beside its anchor measured in the same run, printed as a table.
// Benchmarks are not tests: they measure and print, and a slow machine makes numbers smaller, not a failure.
import { uploadMemoryBench } from './upload-memory.js';

const benches: Array<[string, () => Promise<Array<[string, string]>>]> = [['100 MB upload through the checker client', uploadMemoryBench]];

console.log(`Node ${process.version}, ${new Date().toISOString()}\n`);
for (const [title, run] of benches) {
  console.log(`## ${title}`);
  for (const [name, value] of await run()) console.log(`| ${name.padEnd(52)} | ${value.padEnd(36)} |`);
  console.log('');
}
