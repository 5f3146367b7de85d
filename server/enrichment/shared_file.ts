// Reads a file into a SharedArrayBuffer so the main thread and every job
// worker use one copy of the databases (hundreds of MB) instead of one each.
import { readInto } from "../read_into.ts";

export async function readShared(path: string): Promise<Uint8Array> {
  const file = await Deno.open(path, { read: true });
  try {
    const { size } = await file.stat();
    return await readInto(file, new Uint8Array(new SharedArrayBuffer(size)));
  } finally {
    file.close();
  }
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
