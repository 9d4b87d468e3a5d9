// The tool as a separate process: from its sources (through tsx, as `npm run cli` runs), or built into dist/ the way
// `npm start` runs it (the test runner builds it first, scripts/test.mjs).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/esm/index.mjs', import.meta.url));

/** A minimal environment: what a fresh shell has, none of the tool's settings unless given. */
function baseEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
  return { ...env, ...extra };
}

export interface ToolProcess {
  child: ChildProcess;
  url: string;
  port: number;
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** How the tool is run: its TypeScript sources through tsx, or the JavaScript `npm run build` wrote to dist/. */
export type ToolEntry = 'source' | 'built';

function toolArgs(entry: ToolEntry): string[] {
  if (entry === 'source') return ['--import', tsx, `${projectRoot}/src/main.ts`];
  const built = `${projectRoot}/dist/main.js`;
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first (npm test does).`);
  return [built];
}

export async function startToolProcess(
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs?: number; entry?: ToolEntry } = {},
): Promise<ToolProcess> {
  const child = spawn(process.execPath, toolArgs(options.entry ?? 'source'), {
    cwd: options.cwd ?? projectRoot,
    env: baseEnv({ PORT: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A process left running would keep the test file (and the whole run) from ever ending.
      child.kill('SIGKILL');
      reject(new Error(`The tool did not start in time:\n${output}`));
    }, options.timeoutMs ?? 60_000);
    const check = () => {
      const match = output.match(/listening on port (\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The tool exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      return exited(child);
    },
  };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs src/<script> to its end (main.ts or cli/main.ts) and gives back what it printed. */
export function runToExit(
  script: 'main.ts' | 'cli/main.ts',
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs?: number; input?: string } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, `${projectRoot}/src/${script}`, ...args], {
      cwd: options.cwd ?? projectRoot,
      env: baseEnv(env),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} did not finish in time:\n${stdout}${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
