/** A command line the CLI cannot read: its message and the help are printed, and it exits with 2. */
export class UsageError extends Error {}
