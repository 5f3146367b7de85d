// A full disk, recognised in one place: SQLite's SQLITE_FULL ("database or
// disk is full") and the system's ENOSPC ("No space left on device") on a
// write. The job and the upload then say which disk is full and what to do.

// SQLite's primary result code for a full disk (extended codes keep it in
// the low byte).
const SQLITE_FULL = 13;

const FULL_TEXT = /database or disk is full|no space left on device|ENOSPC/i;

/** True when `error` means the disk is full. */
export function isDiskFull(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { errcode, code } = error as Error & {
    errcode?: number;
    code?: string;
  };
  if (typeof errcode === "number" && (errcode & 0xff) === SQLITE_FULL) {
    return true;
  }
  if (code === "ENOSPC") return true;
  return FULL_TEXT.test(error.message) ||
    (error.cause !== undefined && isDiskFull(error.cause));
}

/** What a job that stopped on a full disk says. */
export function jobDiskFullMessage(dataDir: string): string {
  return `The disk holding the data directory (${dataDir}) is full: free ` +
    "some space, then press Restart; rows saved so far are kept";
}

/** What an upload refused for want of space says. */
export function uploadDiskFullMessage(dataDir: string): string {
  return `The disk holding the data directory (${dataDir}) is full, so the ` +
    "file could not be stored: free some space, then upload it again";
}

const RESERVE_FILE = ".disk-reserve";
const RESERVE_BYTES = 1024 * 1024;

/**
 * A little space held back in the data directory: when the disk fills, it
 * is given up so that the job can still be marked failed with words a user
 * understands (SQLite needs room even for that one UPDATE), and taken back
 * once a job starts again.
 */
export class DiskReserve {
  readonly #path: string;

  constructor(dataDir: string) {
    this.#path = `${dataDir}/${RESERVE_FILE}`;
  }

  /** Holds the reserve again if there is room; quietly not, if there is none. */
  hold(): void {
    try {
      if (Deno.statSync(this.#path).size === RESERVE_BYTES) return;
    } catch { /* not there yet */ }
    try {
      Deno.writeFileSync(this.#path, new Uint8Array(RESERVE_BYTES));
    } catch {
      try {
        Deno.removeSync(this.#path);
      } catch { /* nothing written */ }
    }
  }

  /** Gives the reserve up, for the writes that report a full disk. */
  release(): void {
    try {
      Deno.removeSync(this.#path);
    } catch { /* already given up */ }
  }
}
