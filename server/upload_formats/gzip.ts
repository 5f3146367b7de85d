// .csv.gz: the platform's gzip decoder, streaming, under the output limit.
import { inflate } from "./bounded_chunks.ts";
import { explainErrors, limitDecompressed } from "./limits.ts";

/** The CSV bytes inside a gzip stream. */
export function gunzipCsv(
  source: ReadableStream<Uint8Array>,
  maxBytes: number,
): ReadableStream<Uint8Array> {
  return explainErrors(
    inflate(source, "gzip").pipeThrough(limitDecompressed(maxBytes)),
    "gzip file",
  );
}
