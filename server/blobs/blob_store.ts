// Where uploads (and anything else every replica must read) are kept: a
// local directory by default, or S3-compatible storage when several machines
// share the work. Keys are relative paths such as "uploads/12.csv".

import { byteLimit } from "../byte_limits.ts";

export interface BlobInfo {
  key: string;
  size: number;
  modifiedAt: Date;
}

/** A byte range, `end` exclusive; without `end`, to the end of the blob. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface PutOptions {
  /** Refuse (and store nothing) once the body exceeds this many bytes. */
  maxBytes?: number;
}

export interface BlobStore {
  /** Stores the whole stream under `key`, replacing any blob there; returns its size. */
  put(
    key: string,
    body: ReadableStream<Uint8Array>,
    options?: PutOptions,
  ): Promise<number>;
  /** The blob's bytes, or a range of them, for reading a chunk of a job. */
  get(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** The same at once, for the small parts a job's pages read. */
  bytes(key: string, range?: ByteRange): Promise<Uint8Array>;
  /** Size and time of a blob, or null when there is none. */
  head(key: string): Promise<BlobInfo | null>;
  /** Removes a blob; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Blobs under `prefix` last written before `cutoff`, for housekeeping. */
  listOlderThan(cutoff: Date, prefix?: string): Promise<BlobInfo[]>;
}

/** A stream's bytes, all of them. */
export async function bytesOf(
  stream: ReadableStream<Uint8Array>,
): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A blob store that answered a request with an error it kept giving
 * (`store` names it: "S3 at <endpoint>"); `full` when it said it has no
 * room (HTTP 507, MinIO's XMinioStorageFull).
 */
export class BlobStoreError extends Error {
  constructor(
    readonly store: string,
    readonly request: string,
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${store}: ${request} answered ${status} ${code}: ${detail}`);
    this.name = "BlobStoreError";
  }

  get full(): boolean {
    return this.status === 507 || /StorageFull|InsufficientStorage/i.test(
      this.code,
    );
  }
}

/**
 * A blob store that could not be reached (no connection, or server errors
 * that did not pass) for as long as requests are tried again.
 */
export class BlobStoreUnreachable extends Error {
  constructor(
    readonly store: string,
    readonly request: string,
    readonly seconds: number,
    readonly reason: string,
  ) {
    super(`${store}: ${request} failed for ${seconds} s: ${reason}`);
    this.name = "BlobStoreUnreachable";
  }
}

export class BlobNotFound extends Error {
  constructor(key: string) {
    super(`no blob "${key}"`);
    this.name = "BlobNotFound";
  }
}

export class BlobTooLarge extends Error {
  constructor(key: string, maxBytes: number) {
    super(`blob "${key}" is larger than ${maxBytes} bytes`);
    this.name = "BlobTooLarge";
  }
}

export class BlobKeyError extends Error {
  constructor(key: string) {
    super(
      `blob key "${key}" must be relative path segments of letters, digits, ".", "_" or "-"`,
    );
    this.name = "BlobKeyError";
  }
}

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Throws unless `key` is a plain relative path: no "..", no absolute paths. */
export function checkKey(key: string): string {
  const segments = key.split("/");
  const valid = key.length > 0 && key.length <= 512 &&
    segments.every((segment) =>
      SEGMENT.test(segment) && segment !== "." && segment !== ".."
    );
  if (!valid) throw new BlobKeyError(key);
  return key;
}

/** Checks a prefix for listing: "" or a key, optionally ending in "/". */
export function checkPrefix(prefix: string): string {
  if (prefix === "") return prefix;
  checkKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
  return prefix;
}

export function checkRange(range: ByteRange): void {
  const { start, end } = range;
  if (
    !Number.isSafeInteger(start) || start < 0 ||
    (end !== undefined && (!Number.isSafeInteger(end) || end < start))
  ) {
    throw new RangeError(`bad byte range ${start}-${end ?? ""}`);
  }
}

/** Passes chunks through, failing the stream once more than `max` bytes pass. */
export const limitBytes = (key: string, max = Infinity) =>
  byteLimit(max, () => new BlobTooLarge(key, max));
