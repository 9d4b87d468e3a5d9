// Whether a process named in a lock file still runs: signal 0 checks without touching it; EPERM means it runs under
// another user. The embedded database's lock and the sandbox's journal lock both ask it.
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
