// `npm run moodle:zip`: the two Moodle plugins as the zips Moodle's plugin installer takes (Site administration >
// Plugins > Install plugins), each with one top folder named as the plugin's folder in Moodle (plagiarism/olti and
// mod/lti/service/olti are both `olti`), into dist/moodle/. Prints every file with its size, and each zip's size.
// The same sources give the same bytes: entries in name order, one fixed time.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { zipSync, type Zippable } from 'fflate';

const root = new URL('..', import.meta.url).pathname;

/** The plugins: their source folder under moodle/, and the folder Moodle installs them into. */
export const PLUGINS = [
  { component: 'plagiarism_olti', source: 'moodle/plagiarism_olti', installsInto: 'plagiarism/olti' },
  { component: 'ltiservice_olti', source: 'moodle/ltiservice_olti', installsInto: 'mod/lti/service/olti' },
];

const FIXED_TIME = new Date('2026-01-01T00:00:00Z');

function filesOf(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesOf(path));
    else found.push(path);
  }
  return found;
}

export interface BuiltZip {
  component: string;
  source: string;
  installsInto: string;
  /** The zip's one top folder. */
  top: string;
  zipPath: string;
  zipBytes: number;
  files: { name: string; size: number }[];
}

/** Builds each plugin's zip into `outDir`; returns what went into each. */
export function buildZips(outDir = join(root, 'dist/moodle')): BuiltZip[] {
  mkdirSync(outDir, { recursive: true });
  return PLUGINS.map((plugin) => {
    const sourceDir = join(root, plugin.source);
    const top = plugin.installsInto.split('/').pop()!;
    const files = filesOf(sourceDir).map((path) => ({ name: relative(sourceDir, path), bytes: readFileSync(path) }));
    const entries: Zippable = Object.fromEntries(
      files.map((file) => [`${top}/${file.name}`, [new Uint8Array(file.bytes), { mtime: FIXED_TIME }] as const]),
    );
    const zip = zipSync(entries, { level: 9 });
    const zipPath = join(outDir, `${plugin.component}.zip`);
    writeFileSync(zipPath, zip);
    return {
      ...plugin,
      top,
      zipPath,
      zipBytes: zip.length,
      files: files.map((file) => ({ name: file.name, size: file.bytes.length })),
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let built: BuiltZip[];
  try {
    built = buildZips();
  } catch (error) {
    process.stderr.write(`The Moodle plugins could not be zipped: ${(error as Error).message}\n`);
    process.exit(1);
  }
  for (const plugin of built) {
    const total = plugin.files.reduce((sum, file) => sum + file.size, 0);
    process.stdout.write(
      `${plugin.component} (installs into ${plugin.installsInto}): ${plugin.files.length} files, ${total} bytes, ` +
        `zip ${plugin.zipBytes} bytes -> ${relative(process.cwd(), plugin.zipPath)}\n`,
    );
    for (const file of plugin.files) process.stdout.write(`  ${String(file.size).padStart(7)}  ${file.name}\n`);
  }
}
