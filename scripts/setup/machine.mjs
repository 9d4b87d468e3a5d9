// Facts about this machine that the set-up steps decide on (scripts/setup/chromium.mjs, nginx.mjs), and apt-get as
// they run it: Debian's packages, installed as root, with apt-get's output kept back and its end shown on a failure.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { SetupError } from './error.mjs';

export const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** { env, executable(path), isRoot, hasApt, platform }: what a set-up step's plan is made from. */
export function thisMachine(env) {
  return {
    env,
    executable,
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    hasApt: process.platform === 'linux' && onPath('apt-get'),
    platform: process.platform,
  };
}

/**
 * apt-get with `args`, non-interactive; a package's service is not started on install (RUNLEVEL=1: the tests start
 * their own). `what` names what could not be installed when it fails.
 */
export function aptGet(args, what) {
  const result = spawnSync('apt-get', args, {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    const tail = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`
      .trim()
      .split('\n')
      .slice(-8)
      .join('\n  ');
    throw new SetupError(`apt-get ${args.join(' ')} failed, so ${what} could not be installed; it said:\n  ${tail}`);
  }
}
