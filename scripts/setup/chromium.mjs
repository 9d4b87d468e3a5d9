// The Chromium the browser tests drive through playwright-core: the one CHROMIUM_PATH names, or the first found
// in the usual places, or else Debian's package `chromium`, installed with apt-get when this runs as root (as on
// CI's machines). Anywhere else it stops with the one command that installs one.
//
//   node scripts/setup/chromium.mjs --dry-run              what npm test would do on this machine
//   node scripts/setup/chromium.mjs --dry-run --as-if-none  the same, as if no Chromium were installed
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { SetupError } from './error.mjs';
import { aptGet, executable, thisMachine } from './machine.mjs';

/** Where Debian's package puts it first; then other Linux packages' names, and macOS's applications. */
export const USUAL_PLACES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];
const APT_INSTALL = 'apt-get install -y chromium';

/**
 * What to do, from facts about the machine: { use: path }, { install: 'apt' }, or { fail: sentence }.
 * `machine` is { env, executable(path), isRoot, hasApt, platform }.
 */
export function chromiumPlan(machine) {
  const named = machine.env.CHROMIUM_PATH;
  if (named) {
    return machine.executable(named)
      ? { use: named, how: 'named by CHROMIUM_PATH' }
      : {
          fail: `CHROMIUM_PATH names ${named}, which is not an executable file: point it at a Chromium or Chrome, or unset it and npm test finds or installs one.`,
        };
  }
  const found = USUAL_PLACES.find((path) => machine.executable(path));
  if (found) return { use: found, how: 'found' };
  if (machine.platform === 'linux' && machine.hasApt && machine.isRoot) return { install: 'apt' };
  const command =
    machine.platform === 'darwin'
      ? 'brew install --cask chromium'
      : machine.hasApt
        ? `sudo ${APT_INSTALL}`
        : "your system's package manager (the package is usually called chromium)";
  return {
    fail: `The browser tests need Chromium, and none was found (looked in ${USUAL_PLACES[0]} and ${USUAL_PLACES.length - 1} other usual places). Install it with: ${command} (or set CHROMIUM_PATH to a Chromium or Chrome you have).`,
  };
}

function version(path) {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** The path of a Chromium that runs, installing one where needed; `say` prints one line per step. */
export function provideChromium(env, say) {
  const plan = chromiumPlan(thisMachine(env));
  if (plan.fail) throw new SetupError(plan.fail);
  if (plan.use) {
    const running = version(plan.use);
    if (!running)
      throw new SetupError(
        `${plan.use} (${plan.how}) does not run: \`${plan.use} --version\` failed. Reinstall it (${APT_INSTALL} on Debian), or set CHROMIUM_PATH to another.`,
      );
    say(`Chromium ${plan.how} at ${plan.use} (${running})`);
    return plan.use;
  }
  const started = Date.now();
  say(`no Chromium installed: installing Debian's package chromium with apt-get (about a minute)`);
  aptGet(['update', '-q'], 'Chromium');
  aptGet(['install', '-y', '-q', 'chromium'], 'Chromium');
  const installed = USUAL_PLACES[0];
  const running = executable(installed) && version(installed);
  if (!running) throw new SetupError(`apt-get installed chromium, but ${installed} does not run.`);
  say(`installed ${installed} (${running}) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return installed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv.includes('--dry-run')) {
  const machine = thisMachine(process.env);
  if (process.argv.includes('--as-if-none')) machine.executable = () => false;
  const plan = chromiumPlan(machine);
  const facts = `root: ${machine.isRoot}, apt-get: ${machine.hasApt}, platform: ${machine.platform}`;
  if (plan.use) console.log(`would use ${plan.use} (${plan.how}); ${facts}`);
  if (plan.install)
    console.log(
      `would run: DEBIAN_FRONTEND=noninteractive apt-get update -q && apt-get install -y -q chromium; ${facts}`,
    );
  if (plan.fail) console.log(`would stop with: ${plan.fail}; ${facts}`);
}
