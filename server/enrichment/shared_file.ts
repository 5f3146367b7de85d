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
