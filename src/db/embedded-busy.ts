// The embedded data directory is open in another live process: PGlite is one backend, and two processes writing
// one data directory would corrupt it. Apart from embedded.ts so that naming the error loads no PGlite.
export class EmbeddedDatabaseBusy extends Error {
  constructor(readonly pid: number) {
    super(
      `The embedded database in this DATA_DIR is already open in process ${pid}. ` +
        'Stop that process, or give this one its own DATA_DIR or a DATABASE_URL.',
    );
    this.name = 'EmbeddedDatabaseBusy';
  }
}
