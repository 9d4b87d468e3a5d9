// The nginx the reverse-proxy test (test/deploy/) puts in front of the tool: the one NGINX_PATH names, or the first
// found in the usual places, or else Debian's package `nginx`, installed with apt-get when this runs as root (as on
// CI's machines), as scripts/setup/chromium.mjs does for Chromium. Anywhere else it stops with the one command that
// installs it. Debian's package, because docs/operations.md's recipe is written for it.
//
//   node scripts/setup/nginx.mjs --dry-run              what npm test would do on this machine
//   node scripts/setup/nginx.mjs --dry-run --as-if-none  the same, as if no nginx were installed
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { SetupError } from './error.mjs';
import { aptGet, executable, thisMachine } from './machine.mjs';

export const USUAL_PLACES = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];
const APT_INSTALL = 'apt-get install -y nginx';

/** What to do, from facts about the machine ({ env, executable(path), isRoot, hasApt, platform }). */
export function nginxPlan(machine) {
  const named = machine.env.NGINX_PATH;
  if (named) {
    return machine.executable(named)
      ? { use: named, how: 'named by NGINX_PATH' }
      : { fail: `NGINX_PATH names ${named}, which is not an executable file: point it at nginx, or unset it.` };
  }
  const found = USUAL_PLACES.find((path) => machine.executable(path));
  if (found) return { use: found, how: 'found' };
  if (machine.platform === 'linux' && machine.hasApt && machine.isRoot) return { install: 'apt' };
  const command =
    machine.platform === 'darwin'
      ? 'brew install nginx'
      : machine.hasApt
        ? `sudo ${APT_INSTALL}`
        : "your system's package manager (the package is called nginx)";
  return {
    fail: `The reverse-proxy test needs nginx, and none was found (looked in ${USUAL_PLACES.join(', ')}). Install it with: ${command} (or set NGINX_PATH).`,
  };
}

function version(path) {
  const result = spawnSync(path, ['-v'], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 0 ? `${result.stderr}${result.stdout}`.trim() : null;
}

/** The path of an nginx that runs, installing one where needed; `say` prints one line per step. */
export function provideNginx(env, say) {
  const plan = nginxPlan(thisMachine(env));
  if (plan.fail) throw new SetupError(plan.fail);
  if (plan.use) {
    const running = version(plan.use);
    if (!running) throw new SetupError(`${plan.use} (${plan.how}) does not run: \`${plan.use} -v\` failed.`);
    say(`nginx ${plan.how} at ${plan.use} (${running})`);
    return plan.use;
  }
  const started = Date.now();
  say(`no nginx installed: installing Debian's package nginx with apt-get (under a minute)`);
  aptGet(['update', '-q'], 'nginx');
  aptGet(['install', '-y', '-q', '--no-install-recommends', 'nginx'], 'nginx');
  const installed = USUAL_PLACES[0];
  const running = executable(installed) && version(installed);
  if (!running) throw new SetupError(`apt-get installed nginx, but ${installed} does not run.`);
  say(`installed ${installed} (${running}) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return installed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv.includes('--dry-run')) {
  const machine = thisMachine(process.env);
  if (process.argv.includes('--as-if-none')) machine.executable = () => false;
  const plan = nginxPlan(machine);
  const facts = `root: ${machine.isRoot}, apt-get: ${machine.hasApt}, platform: ${machine.platform}`;
  if (plan.use) console.log(`would use ${plan.use} (${plan.how}); ${facts}`);
  if (plan.install)
    console.log(`would run: DEBIAN_FRONTEND=noninteractive apt-get update -q && ${APT_INSTALL} -q; ${facts}`);
  if (plan.fail) console.log(`would stop with: ${plan.fail}; ${facts}`);
}
