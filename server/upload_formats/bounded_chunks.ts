// Keeps every chunk of a decoded upload small, so memory during an upload
// is bounded by a constant however far the file expands. Deflate expands up
// to about 1032:1, and the platform's decoder answers each input chunk with
// all it inflates to: a 64 KiB chunk of a hostile gzip became 64 MiB at
// once. Fed small slices, the decoder's output stays small too.

/** Input slice for a decoder: its output chunks stay near 4 MiB at most. */
export const INFLATE_SLICE = 4 * 1024;
/** What the row reader takes at a time (parsed rows are made per chunk). */
export const READ_CHUNK = 64 * 1024;

/** Splits chunks into views of at most `maxBytes` (no copying). */
export function sliceChunks(
  maxBytes: number,
): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    transform(chunk, controller) {
      if (chunk.byteLength <= maxBytes) return controller.enqueue(chunk);
      for (let at = 0; at < chunk.byteLength; at += maxBytes) {
        controller.enqueue(chunk.subarray(at, at + maxBytes));
      }
    },
  });
}

/** A gzip or raw deflate stream inflated, in chunks of about 4 MiB at most. */
export function inflate(
  source: ReadableStream<Uint8Array>,
  format: "gzip" | "deflate-raw",
): ReadableStream<Uint8Array> {
  return source
    .pipeThrough(sliceChunks(INFLATE_SLICE))
    .pipeThrough(
      new DecompressionStream(format) as unknown as TransformStream<
        Uint8Array,
        Uint8Array
      >,
    );
}
