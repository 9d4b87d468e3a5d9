#!/usr/bin/env node
// `npm run build`: compiles src/ into dist/, only when the sources changed since the last build. A fingerprint of
// what the build reads (src/, the tsconfig files, package-lock.json) is kept in dist/ beside the output; when it
// matches, the build is already there and nothing runs. `npm start` (scripts/start.mjs) asks the same question.
//
//   npm run build              build if the sources changed
//   npm run build -- --force   build anyway
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(root, 'dist', '.sources.sha256');
const INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The fingerprint of everything the build reads: each file's path and content. */
export function sourcesFingerprint() {
  const hash = createHash('sha256');
  const files = [...filesUnder(join(root, 'src')), ...INPUTS.map((name) => join(root, name))].filter(existsSync);
  for (const file of files.sort())
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex');
}

/** Whether dist/ holds the build of the sources as they are now. */
export function upToDate(fingerprint = sourcesFingerprint()) {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === fingerprint;
}

/** Compiles src/ into a clean dist/ and records the fingerprint; returns false when the compiler failed. */
export function build(fingerprint = sourcesFingerprint()) {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (result.status !== 0) return false;
  writeFileSync(STAMP, `${fingerprint}\n`);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const fingerprint = sourcesFingerprint();
  if (!process.argv.includes('--force') && upToDate(fingerprint)) {
    console.log('dist/ is up to date with the sources: nothing to build (npm run build -- --force builds anyway).');
  } else {
    const started = Date.now();
    console.log('Building the tool into dist/ ...');
    if (!build(fingerprint)) {
      console.error('The build failed: see the compiler errors above.');
      process.exit(1);
    }
    console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
}
