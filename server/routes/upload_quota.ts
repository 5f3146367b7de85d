// UPLOAD_QUOTA_MB: what one session may store in uploads over a day. The
// stored file is what an upload expands to (a 51 KB gzip can store 52 MB),
// and uploads are kept a day, so without it one visitor could fill the disk.
// Counted in this process's memory: a restart forgets it, and each server
// of a scaled-out deployment counts its own.
import { ApiError } from "../http_error.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export class UploadQuota {
  /** Per session: when each upload was stored, and its bytes. */
  readonly #stored = new Map<string, { at: number; bytes: number }[]>();

  constructor(private readonly maxBytes: number) {}

  /** Bytes the session stored in the last day. */
  used(session: string, now = Date.now()): number {
    const list = (this.#stored.get(session) ?? []).filter((u) =>
      now - u.at < DAY_MS
    );
    if (list.length === 0) this.#stored.delete(session);
    else this.#stored.set(session, list);
    return list.reduce((n, u) => n + u.bytes, 0);
  }

  /** Throws the 429 when the session has no room left for `bytes` more. */
  check(session: string, bytes = 0): void {
    if (this.maxBytes <= 0) return;
    const used = this.used(session);
    if (used + bytes <= this.maxBytes && used < this.maxBytes) return;
    const mb = (n: number) => Math.ceil(n / (1024 * 1024));
    throw new ApiError(
      429,
      `This upload would take your uploads in the last 24 hours to ` +
        `${mb(used + bytes)} MB; the server stores at most ` +
        `${mb(this.maxBytes)} MB a day for each visitor (UPLOAD_QUOTA_MB). ` +
        "Try again later, or ask the operator to raise the limit.",
      "Upload quota reached",
    );
  }

  add(session: string, bytes: number): void {
    if (this.maxBytes <= 0) return;
    const list = this.#stored.get(session) ?? [];
    list.push({ at: Date.now(), bytes });
    this.#stored.set(session, list);
  }
}
