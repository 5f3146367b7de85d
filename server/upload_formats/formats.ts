// Which kind of file an upload is, and the table inside it. Compressed and
// .xlsx files come out as CSV text; CSV and tab-separated text are stored
// as they came, their lines what the download keeps.
import { READ_CHUNK, sliceChunks } from "./bounded_chunks.ts";
import { gunzipCsv } from "./gzip.ts";
import { xlsxFirstSheetCsv } from "./xlsx.ts";
import { unzipSingleCsv } from "./zip.ts";
import type { Dialect } from "../csv/dialect.ts";

export type UploadFormat = "csv" | "tsv" | "gzip" | "zip" | "xlsx";

const GZIP_MAGIC = [0x1f, 0x8b];
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

const startsWith = (head: Uint8Array, magic: number[]) =>
  magic.every((byte, i) => head[i] === byte);

/**
 * The format from the first bytes where they say (gzip, zip), else from the
 * name; null for a name and content the server does not read.
 */
export function detectUploadFormat(
  fileName: string,
  head: Uint8Array,
): UploadFormat | null {
  const name = fileName.toLowerCase();
  if (startsWith(head, GZIP_MAGIC)) return "gzip";
  if (startsWith(head, ZIP_MAGIC)) {
    return name.endsWith(".xlsx") ? "xlsx" : "zip";
  }
  if (name.endsWith(".xlsx") || name.endsWith(".zip") || name.endsWith(".gz")) {
    return null; // the name promises an archive the bytes are not
  }
  if (name.endsWith(".tsv") || name.endsWith(".tab")) return "tsv";
  if (name.endsWith(".csv") || name.endsWith(".txt")) return "csv";
  return null;
}

export interface DecodedUpload {
  /** The CSV (or TSV) text as bytes. */
  bytes: ReadableStream<Uint8Array>;
  /** What the format fixes of the dialect; the rest is found. */
  fixed?: Partial<Pick<Dialect, "delimiter" | "quote">>;
}

export interface DecodeLimits {
  /** MAX_UNCOMPRESSED_MB in bytes. */
  maxUncompressedBytes: number;
  /** MAX_ROW_BYTES (an .xlsx row is measured as it is built). */
  maxRowBytes: number;
}

/**
 * The table inside an upload, streamed under the decompressed limit, in
 * chunks of at most READ_CHUNK bytes.
 */
export function decodeUpload(
  format: UploadFormat,
  source: ReadableStream<Uint8Array>,
  limits: DecodeLimits,
): DecodedUpload {
  const decoded = decodedTable(format, source, limits);
  return {
    ...decoded,
    bytes: decoded.bytes.pipeThrough(sliceChunks(READ_CHUNK)),
  };
}

function decodedTable(
  format: UploadFormat,
  source: ReadableStream<Uint8Array>,
  { maxUncompressedBytes, maxRowBytes }: DecodeLimits,
): DecodedUpload {
  switch (format) {
    case "csv":
      return { bytes: source };
    case "tsv":
      // Tab-separated text has no quoting: a quote is part of its cell.
      return { bytes: source, fixed: { delimiter: "\t", quote: "" } };
    case "gzip":
      return { bytes: gunzipCsv(source, maxUncompressedBytes) };
    case "zip":
      return { bytes: unzipSingleCsv(source, maxUncompressedBytes) };
    case "xlsx":
      return {
        bytes: xlsxFirstSheetCsv(source, maxUncompressedBytes, maxRowBytes),
        fixed: { delimiter: ",", quote: '"' },
      };
  }
}

/**
 * The first bytes of a stream (for detectUploadFormat) and the whole stream
 * again, those bytes included.
 */
export async function peekHead(
  source: ReadableStream<Uint8Array>,
): Promise<{ head: Uint8Array; stream: ReadableStream<Uint8Array> }> {
  const reader = source.getReader();
  const first = await reader.read();
  const head = first.done ? new Uint8Array(0) : first.value;
  let sentHead = first.done;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentHead) {
        sentHead = true;
        controller.enqueue(head);
        return;
      }
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { head, stream };
}
