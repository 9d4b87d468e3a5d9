#!/usr/bin/env node
// `npm start`: runs the tool built in dist/, building it first only when its sources changed since the last build
// (scripts/build.mjs), and saying so in one line. Before a build, the tool's own early checks run from the sources
// (every wrong setting, the data folder open in another process, the port taken: src/main.ts `--check`), so that a
// start that cannot succeed says why within seconds rather than after the compiler.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, root, sourcesFingerprint, upToDate } from './build.mjs';

const fingerprint = sourcesFingerprint();
if (!upToDate(fingerprint)) {
  const check = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src', 'main.ts'), '--check'], {
    stdio: 'inherit',
  });
  if (check.status !== 0) process.exit(check.status ?? 1);
  const started = Date.now();
  process.stderr.write(
    'Building the tool into dist/ first: its sources changed since the last build (about a minute; the next start skips this).\n',
  );
  if (!build(fingerprint)) {
    process.stderr.write('originality-lti could not start: the build failed (see the compiler errors above).\n');
    process.exit(1);
  }
  process.stderr.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s; starting.\n`);
}
await import(pathToFileURL(join(root, 'dist', 'main.js')).href);
