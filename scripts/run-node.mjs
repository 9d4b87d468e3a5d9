// Runs a command of the test scripts with its output passed through, and keeps node's test reporter summary
// (`ℹ tests N`, `ℹ pass N`, `ℹ fail N`, ...) as it goes by: it comes before the list of failing tests and their
// stack traces, so it is kept line by line rather than looked for in the end of the output.
import { spawn } from 'node:child_process';

const SUMMARY_LINE = /^ℹ\s+(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)\s*$/;

/** Resolves with the exit code and the summary's counts by name (none when the reporter printed no summary). */
export function runWithSummary(cmd, args, options) {
  return new Promise((resolve) => {
    const summary = {};
    let partial = '';
    const keep = (line) => {
      const found = SUMMARY_LINE.exec(line.replace(/\x1b\[[0-9;]*m/g, ''));
      if (found) summary[found[1]] = Number(found[2]);
    };
    const child = spawn(cmd, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      lines.forEach(keep);
    });
    child.on('close', (code) => {
      keep(partial);
      resolve({ code: code ?? 1, summary });
    });
  });
}
