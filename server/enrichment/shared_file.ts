// The databases in shared memory, so the main thread and every job worker
// use one copy of them (hundreds of MB) instead of one each.

type Shareable = Uint8Array | Uint16Array | Uint32Array;

/** A copy of a typed array in shared memory. */
export function shareCopy<T extends Shareable>(values: T): T {
  const make = values.constructor as new (buffer: SharedArrayBuffer) => T;
  const shared = new make(new SharedArrayBuffer(values.byteLength));
  shared.set(values);
  return shared;
}

/** A typed array over shared memory, filled from a plain one. */
export function shareUint32(values: ArrayLike<number>): Uint32Array {
  const shared = new Uint32Array(
    new SharedArrayBuffer(values.length * Uint32Array.BYTES_PER_ELEMENT),
  );
  shared.set(values);
  return shared;
}

/** Strings in shared memory: UTF-8 bytes, string i ending at ends[i]. */
export interface SharedStrings {
  bytes: Uint8Array;
  ends: Uint32Array;
}

export function shareStrings(values: string[]): SharedStrings {
  const encoder = new TextEncoder();
  const encoded = values.map((value) => encoder.encode(value));
  const ends = new Uint32Array(
    new SharedArrayBuffer(values.length * Uint32Array.BYTES_PER_ELEMENT),
  );
  let size = 0;
  encoded.forEach((value, i) => ends[i] = size += value.length);
  const bytes = new Uint8Array(new SharedArrayBuffer(size));
  encoded.forEach((value, i) => bytes.set(value, ends[i] - value.length));
  return { bytes, ends };
}

const decoder = new TextDecoder();

/** String i of shared strings. */
export function stringAt(strings: SharedStrings, i: number): string {
  const start = i > 0 ? strings.ends[i - 1] : 0;
  return decoder.decode(strings.bytes.subarray(start, strings.ends[i]));
}
