// Reads a file into a SharedArrayBuffer so the main thread and every job
// worker use one copy of the databases (hundreds of MB) instead of one each.

export async function readShared(path: string): Promise<Uint8Array> {
  const file = await Deno.open(path, { read: true });
  try {
    const { size } = await file.stat();
    const bytes = new Uint8Array(new SharedArrayBuffer(size));
    let offset = 0;
    while (offset < size) {
      const n = await file.read(bytes.subarray(offset));
      if (n === null) break;
      offset += n;
    }
    return bytes.subarray(0, offset);
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
