// CPU per call of one piece of work, for the benchmarks that time a single operation in one process
// (bench/ltijs-parts.ts, bench/session-token.ts).

/**
 * Microseconds of the process's CPU (user and system, every thread's: WebCrypto's jobs run on the thread pool) per
 * call of `work`, over `iterations` calls after a warm-up of a tenth as many.
 */
export async function cpuPerCall(work: () => unknown, iterations: number): Promise<number> {
  for (let i = 0; i < iterations / 10; i += 1) await work();
  const before = process.cpuUsage();
  for (let i = 0; i < iterations; i += 1) await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / iterations;
}
