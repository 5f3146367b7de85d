// Bytes appended to one growing buffer: a chunk's download lines and its
// rows' lines are built this way, a copy per piece rather than an array per
// row.
import { release, resized } from "../typed_arrays.ts";

const encoder = new TextEncoder();

const FIRST_BYTES = 1 << 16;
/** Bytes copied one by one at most (ByteSink.range). */
const LOOP_BYTES = 96;

export class ByteSink {
  #bytes = new Uint8Array(FIRST_BYTES);
  length = 0;

  #room(n: number): void {
    if (this.length + n <= this.#bytes.length) return;
    this.#bytes = resized(
      this.#bytes,
      Math.max(this.#bytes.length * 2, this.length + n, FIRST_BYTES),
    );
  }

  /** A short piece (a delimiter, a line end), copied as `range` copies. */
  bytes(bytes: Uint8Array): void {
    this.range(bytes, 0, bytes.length);
  }

  /**
   * Bytes [start, end) of `from`: a short piece copied without a view of
   * it (a view costs more than copying a few dozen bytes), a long one by
   * `set`.
   */
  range(from: Uint8Array, start: number, end: number): void {
    this.#room(end - start);
    const to = this.#bytes;
    let at = this.length;
    if (end - start > LOOP_BYTES) {
      to.set(from.subarray(start, end), at);
      this.length += end - start;
      return;
    }
    for (let i = start; i < end; i++) to[at++] = from[i];
    this.length = at;
  }

  /** Bytes [start, end) of another sink. */
  rangeOf(from: ByteSink, start: number, end: number): void {
    this.range(from.#bytes, start, end);
  }

  text(text: string): void {
    const n = text.length;
    this.#room(n * 3);
    // ASCII as is (most cells), else the encoder from the start.
    const to = this.#bytes;
    let at = this.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) {
        this.length += encoder.encodeInto(text, to.subarray(this.length))
          .written;
        return;
      }
      to[at++] = c;
    }
    this.length = at;
  }

  /**
   * `text` as is when each of its characters is ASCII and `plain` (a table
   * by code, 1: plain): true; else nothing is written and false.
   */
  plain(text: string, plain: Uint8Array): boolean {
    const n = text.length;
    this.#room(n);
    const to = this.#bytes;
    let at = this.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80 || plain[c] === 0) return false;
      to[at++] = c;
    }
    this.length = at;
    return true;
  }

  /** The bytes so far (a copy the size of them); the sink starts over. */
  take(): Uint8Array {
    const bytes = this.#bytes.slice(0, this.length);
    this.length = 0;
    return bytes;
  }

  /** The bytes so far in the sink's memory, handed over; it starts over. */
  takeAll(): Uint8Array {
    const bytes = resized(this.#bytes, this.length);
    this.#bytes = new Uint8Array(0);
    this.length = 0;
    return bytes;
  }

  /** Frees its memory now (typed_arrays.ts); the sink starts over empty. */
  release(): void {
    release(this.#bytes);
    this.#bytes = new Uint8Array(0);
    this.length = 0;
  }
}
