// Reads a file into a buffer the caller made (shared memory, a range).

/**
 * Fills `bytes` from where `file` is; the bytes filled (fewer at the
 * file's end).
 */
export async function readInto(
  file: Deno.FsFile,
  bytes: Uint8Array,
): Promise<Uint8Array> {
  let at = 0;
  while (at < bytes.length) {
    const count = await file.read(bytes.subarray(at));
    if (count === null) break;
    at += count;
  }
  return bytes.subarray(0, at);
}
