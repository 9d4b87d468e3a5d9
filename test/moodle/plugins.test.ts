// The two Moodle plugins as an administrator gets them: every PHP file passes `php -l`, `npm run moodle:zip` gives
// each as the zip Moodle's installer takes (one top folder named as the plugin's folder in Moodle, its version.php
// naming the component, every source file inside, the same bytes on a second build), and what a Moodle reviewer
// checks without a Moodle: English and German strings with the same keys, every string the code asks for defined,
// and a capability's and a task's strings present.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { strFromU8, unzipSync } from 'fflate';
import { buildZips, PLUGINS } from '../../scripts/moodle-zip.js';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'moodle-zip-'));
after(() => rmSync(out, { recursive: true, force: true }));

function filesOf(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesOf(path) : [path];
    });
}

const phpFound = await run('php', ['-v']).then(
  () => true,
  () => false,
);

test(
  'every PHP file of both plugins and of the tests in Moodle passes php -l',
  { skip: !phpFound && 'php is not installed here' },
  async () => {
    // Both plugins, and the tests' own PHP helpers that run inside Moodle.
    const php = [...PLUGINS.map((plugin) => join(root, plugin.source)), join(root, 'test/moodle')]
      .flatMap(filesOf)
      .filter((path) => path.endsWith('.php'));
    assert.ok(php.length > 30, `only ${php.length} PHP files found`);
    const failed: string[] = [];
    for (const path of php) {
      const { stdout } = await run('php', ['-l', path]).catch((error: { stdout: string }) => ({
        stdout: error.stdout,
      }));
      if (!stdout.includes('No syntax errors detected')) failed.push(`${relative(root, path)}: ${stdout.trim()}`);
    }
    assert.deepEqual(failed, []);
  },
);

test("each plugin's zip has one top folder, its version.php and every source file, and builds the same twice", () => {
  const first = buildZips(out);
  const again = buildZips(join(out, 'again'));
  for (const [index, built] of first.entries()) {
    const zip = unzipSync(readFileSync(built.zipPath));
    const names = Object.keys(zip).sort();
    assert.equal(built.top, 'olti');
    assert.ok(
      names.every((name) => name.startsWith('olti/')),
      `${built.component}: an entry outside olti/`,
    );
    const sources = filesOf(join(root, built.source)).map((path) => `olti/${relative(join(root, built.source), path)}`);
    assert.deepEqual(names, sources.sort());
    const version = strFromU8(zip['olti/version.php']!);
    assert.match(version, new RegExp(`\\$plugin->component\\s*=\\s*'${built.component}';`));
    assert.match(version, /\$plugin->version\s*=\s*\d{10};/);
    assert.deepEqual(readFileSync(again[index]!.zipPath), readFileSync(built.zipPath), `${built.component} differs`);
  }
});

const stringKeys = (path: string) =>
  [...readFileSync(path, 'utf8').matchAll(/^\$string\['([^']+)'\]\s*=/gm)].map((found) => found[1]!);

test('English and German strings have the same keys, in order, and every string the code asks for is there', () => {
  for (const plugin of PLUGINS) {
    const dir = join(root, plugin.source);
    const en = stringKeys(join(dir, `lang/en/${plugin.component}.php`));
    const de = stringKeys(join(dir, `lang/de/${plugin.component}.php`));
    assert.deepEqual(de, en, `${plugin.component}: German and English keys differ`);
    assert.deepEqual(
      en,
      [...en].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      `${plugin.component}: strings not in order`,
    );
    assert.ok(en.includes('pluginname'), `${plugin.component}: no pluginname`);
    const code = filesOf(dir)
      .filter((path) => /\.(php|mustache)$/.test(path) && !path.includes('/lang/'))
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
    const asked = new Set([
      ...[...code.matchAll(new RegExp(`get_string\\('([a-z0-9_:]+)', '${plugin.component}'`, 'g'))].map((m) => m[1]!),
      ...[...code.matchAll(new RegExp(`\\{\\{#str\\}\\}\\s*([a-z0-9_]+),\\s*${plugin.component}`, 'g'))].map(
        (m) => m[1]!,
      ),
      ...[...code.matchAll(new RegExp(`moodle_exception\\('([a-z0-9_]+)', '${plugin.component}'`, 'g'))].map(
        (m) => m[1]!,
      ),
      ...[...code.matchAll(/'(privacy:metadata:[a-z0-9_:]+)'/g)].map((m) => m[1]!),
    ]);
    const missing = [...asked].filter((key) => !en.includes(key));
    assert.deepEqual(missing, [], `${plugin.component}: strings asked for but not defined`);
  }
  const plagiarism = stringKeys(join(root, 'moodle/plagiarism_olti/lang/en/plagiarism_olti.php'));
  const access = readFileSync(join(root, 'moodle/plagiarism_olti/db/access.php'), 'utf8');
  for (const [, capability] of access.matchAll(/'plagiarism\/(olti:[a-z]+)'/g))
    assert.ok(plagiarism.includes(capability!), `no string for the capability ${capability}`);
  for (const suffix of ['_help'])
    for (const key of plagiarism.filter((k) => k.endsWith(suffix)))
      assert.ok(plagiarism.includes(key.slice(0, -suffix.length)), `${key} has no field string`);
});
