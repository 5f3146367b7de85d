// Typed arrays resized and given up without waiting for the garbage
// collector. V8 frees an ArrayBuffer's memory only when a collection finds
// the buffer dead, and a busy thread's heap is collected seldom, so the
// buffers a chunk outgrew or finished with would stay resident. A transfer
// moves the memory into the resized buffer, or frees it, at once.

type Resizable =
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | Int32Array
  | Float64Array;

/**
 * `array`'s first `length` values (zeros past its end) in an array of its
 * type, which takes its memory over: `array` and any view of its buffer
 * read as empty afterwards.
 */
export function resized<T extends Resizable>(array: T, length: number): T {
  const make = array.constructor as new (buffer: ArrayBuffer) => T;
  const { buffer } = array;
  if (array.byteOffset !== 0 || !(buffer instanceof ArrayBuffer)) {
    throw new TypeError("resized: an array that owns its buffer from byte 0");
  }
  return new make(buffer.transfer(length * array.BYTES_PER_ELEMENT));
}

// Smaller arrays may share a buffer (node:buffer's pool) and free little.
const RELEASED_BYTES = 65_536;

/**
 * Frees the memory of arrays no one reads any more (a chunk's bytes once
 * stored); each, and any view of its buffer, reads as empty afterwards.
 * Small arrays and shared memory are left to the collector.
 */
export function release(...arrays: ArrayBufferView[]): void {
  for (const { buffer } of arrays) {
    if (
      buffer instanceof ArrayBuffer && !buffer.detached &&
      buffer.byteLength >= RELEASED_BYTES
    ) buffer.transfer(0);
  }
}
