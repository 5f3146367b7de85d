// .csv.gz: the platform's gzip decoder, streaming, under the output limit.
import { explainErrors, limitDecompressed } from "./limits.ts";

/** The CSV bytes inside a gzip stream. */
export function gunzipCsv(
  source: ReadableStream<Uint8Array>,
  maxBytes: number,
): ReadableStream<Uint8Array> {
  return explainErrors(
    source
      .pipeThrough(
        new DecompressionStream("gzip") as unknown as TransformStream<
          Uint8Array,
          Uint8Array
        >,
      )
      .pipeThrough(limitDecompressed(maxBytes)),
    "gzip file",
  );
}
