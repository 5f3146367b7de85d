// Short ASCII byte runs as strings without TextDecoder, whose call costs
// more than such a run (a cell, a database's code or name) takes to copy.
// ASCII is valid UTF-8 and the same in every ASCII-compatible encoding.

/** Runs longer than this go to TextDecoder. */
const MOST = 64;

/** The character codes of the run being made, refilled for each. */
const codes: number[] = [];

/**
 * Bytes [start, end) as one flat string when they are a short run of ASCII,
 * else null (the caller decodes them).
 */
export function shortAscii(
  bytes: Uint8Array,
  start: number,
  end: number,
): string | null {
  if (end - start > MOST) return null;
  codes.length = end - start;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b >= 0x80) return null;
    codes[i - start] = b;
  }
  return String.fromCharCode.apply(null, codes);
}
