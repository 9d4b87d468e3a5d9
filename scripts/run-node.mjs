// Runs a command of the test scripts with its output passed through, and keeps node's test reporter summary
// (`ℹ tests N`, `ℹ pass N`, `ℹ fail N`, ...) as it goes by: it comes before the list of failing tests and their
// stack traces, so it is kept line by line rather than looked for in the end of the output. The spec reporter's
// lines for skipped tests and suites (`﹣ name (2ms) # reason`) are kept too, so that the run can name them.
import { spawn } from 'node:child_process';

const SUMMARY_LINE = /^ℹ\s+(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)\s*$/;
const SKIPPED_LINE = /^\s*﹣ (.*) \([\d.]+m?s\)(?: # (.*))?$/;
const running = new Set();

/** Resolves with the exit code, the summary's counts by name (none when the reporter printed no summary) and the skipped tests. */
export function runWithSummary(cmd, args, options) {
  return new Promise((resolve) => {
    const summary = {};
    const skipped = [];
    let partial = '';
    const keep = (raw) => {
      const line = raw.replace(/\x1b\[[0-9;]*m/g, '');
      const found = SUMMARY_LINE.exec(line);
      if (found) summary[found[1]] = Number(found[2]);
      const skip = SKIPPED_LINE.exec(line);
      if (skip) skipped.push({ name: skip[1], reason: skip[2] === 'SKIP' ? undefined : skip[2] });
    };
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    running.add(child);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (!process.stdout.destroyed) process.stdout.write(chunk); // destroyed: its reader is gone (EPIPE)
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      lines.forEach(keep);
    });
    child.on('close', (code) => {
      running.delete(child);
      keep(partial);
      resolve({ code: code ?? 1, summary, skipped });
    });
  });
}

/**
 * Passes a signal on to the commands still running (a Ctrl-C in a terminal reaches them anyway; a kill does not),
 * and resolves once they have ended: a command still running after `graceMs` is killed (SIGKILL).
 */
export function signalRunning(signal, graceMs = 10_000) {
  const ending = [...running].map(
    (child) =>
      new Promise((resolve) => {
        child.once('close', resolve);
        child.kill(signal);
        setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
      }),
  );
  return Promise.all(ending);
}
