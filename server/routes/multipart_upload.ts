// Takes the one file of a multipart/form-data upload (field "file") off
// the request stream, decodes it (gzip, zip, TSV, xlsx: see upload_formats/)
// and writes the CSV to disk as it arrives. The upload limit counts the
// bytes sent, the decompressed limit what comes out; neither file is held
// in memory (an .xlsx is, within the upload limit).
// @ts-types="npm:@types/busboy@^1.5"
import busboy from "busboy";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { unlink } from "node:fs/promises";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { ApiError, badRequest } from "../http_error.ts";
import { isDiskFull } from "../storage/disk_full.ts";
import { ACCEPTED_EXTENSIONS } from "../../shared/upload_files.ts";
import {
  decodeUpload,
  detectUploadFormat,
  peekHead,
} from "../upload_formats/formats.ts";
import { UploadFormatError } from "../upload_formats/limits.ts";
import { type CountedCsv, CsvUploadReader } from "./csv_upload_reader.ts";

export const NOT_A_CSV_FILE =
  "Please upload a CSV, TSV, Excel (.xlsx), or a .csv.gz/.zip of one CSV";
export const NO_HEADER_ROW = "Could not parse CSV headers";
const NOT_MULTIPART = "The upload is not valid multipart/form-data";

/** The answer to an upload over MAX_UPLOAD_MB. */
export const uploadOverLimit = (maxUploadMb: number) =>
  new ApiError(
    413,
    `Please upload a file smaller than ${maxUploadMb}MB`,
    "File too large",
  );

export interface ReceivedCsv extends CountedCsv {
  originalFileName: string;
}

export interface UploadLimits {
  maxBytes: number;
  maxUploadMb: number;
  /** MAX_UNCOMPRESSED_MB in bytes: what a decoded upload may come to. */
  maxUncompressedBytes: number;
  /** Data rows per chunk of a job from this upload (CHUNK_ROWS). */
  chunkRows?: number;
  /** MAX_ROW_BYTES: the longest row. */
  maxRowBytes: number;
}

/** A decoder's refusal as the answer: 413 when the file expands too far. */
function formatRefusal(error: UploadFormatError): ApiError {
  return /expands to more than/.test(error.message)
    ? new ApiError(413, error.message, "File too large")
    : badRequest(error.message, "Invalid file format");
}

const hasAcceptedName = (name: string) =>
  ACCEPTED_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

/**
 * A Node stream as a web stream. (Readable.toWeb enqueues into a cancelled
 * stream when the source goes on, which throws uncaught: a decoder that
 * refuses a file cancels its input while the request is still arriving.)
 */
function webStreamOf(file: Readable): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      file.pause();
      file.on("data", (chunk: Uint8Array) => {
        if (done) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) file.pause();
      });
      file.on("end", () => {
        if (!done) controller.close();
        done = true;
      });
      file.on("error", (error) => {
        if (!done) controller.error(error);
        done = true;
      });
    },
    pull() {
      file.resume();
    },
    cancel() {
      done = true;
      file.resume(); // the rest is read and dropped
    },
  }, { highWaterMark: 4 });
}

/** The client's file name without any path, at most 255 characters. */
function clientFileName(name: string | undefined): string {
  return basename((name ?? "").replaceAll("\\", "/")).slice(0, 255);
}

/**
 * Streams the file part to `path`, counting its rows. Rejects with an
 * ApiError (not .csv, over the limit, no header row, not multipart) or the
 * disk's error; the caller removes the file then.
 */
export function receiveCsvUpload(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  path: string,
  limits: UploadLimits,
): Promise<ReceivedCsv> {
  return new Promise<ReceivedCsv>((resolve, reject) => {
    let settled = false;
    let sawFile = false;
    // A full disk is answered once the body is read (it is bounded by the
    // upload limit): cut short, the client would see a reset, not the words.
    let failAtEnd: Error | null = null;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      source.unpipe();
      source.destroy();
      reject(error);
    };
    let parser: ReturnType<typeof busboy>;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        limits: { files: 1, fileSize: limits.maxBytes, fields: 20, parts: 30 },
      });
    } catch {
      throw badRequest(NOT_MULTIPART);
    }
    const source = Readable.from(body);
    source.on("error", () => fail(badRequest("The upload was interrupted")));

    parser.on("file", (field, file, info) => {
      if (field !== "file" || sawFile) {
        file.resume();
        return;
      }
      sawFile = true;
      const originalFileName = clientFileName(info.filename);
      if (!hasAcceptedName(originalFileName)) {
        file.resume();
        fail(badRequest(NOT_A_CSV_FILE, "Invalid file format"));
        return;
      }
      // Past the raw limit busboy ends the file early and says "limit": the
      // answer goes at once, the rest of the body is not read, and the file
      // is removed once closed (below, as `settled`).
      file.on("limit", () => fail(uploadOverLimit(limits.maxUploadMb)));
      storeDecoded(file, originalFileName).then((counted) => {
        // Refused or broken off meanwhile (over the limit, a cancelled
        // upload): the caller's removal may have come before the file was
        // opened or while it was written, so remove it again once closed.
        if (settled) return void unlink(path).catch(() => {});
        const names = counted.headerRow;
        if (names.length === 0 || names.every((h) => h.trim() === "")) {
          fail(badRequest(NO_HEADER_ROW));
          return;
        }
        settled = true;
        resolve({ ...counted, originalFileName });
      }, (error: Error) => {
        file.resume();
        if (settled) return void unlink(path).catch(() => {});
        if (error instanceof UploadFormatError) {
          fail(formatRefusal(error));
        } else if (isDiskFull(error)) {
          failAtEnd = error;
        } else fail(error);
      });
    });
    parser.on("error", () => fail(badRequest(NOT_MULTIPART)));
    parser.on("close", () => {
      if (failAtEnd) fail(failAtEnd);
      if (!sawFile) fail(badRequest('No file was sent in the field "file"'));
    });
    source.pipe(parser);

    /** Decodes the file part into the CSV at `path`, counting its rows. */
    async function storeDecoded(
      file: Readable,
      name: string,
    ): Promise<CountedCsv> {
      const raw = webStreamOf(file);
      const { head, stream } = await peekHead(raw);
      const format = detectUploadFormat(name, head);
      if (format === null) {
        throw badRequest(NOT_A_CSV_FILE, "Invalid file format");
      }
      const decoded = decodeUpload(format, stream, limits);
      const out = createWriteStream(path);
      const closed = new Promise<void>((ok, err) => {
        out.on("finish", ok);
        out.on("error", err);
      });
      // Awaited below; a write error (a full disk) must not go unhandled
      // meanwhile, which would stop the server.
      closed.catch(() => {});
      const reader = new CsvUploadReader(
        (bytes) => out.write(bytes),
        decoded.fixed,
        limits.chunkRows,
        limits.maxRowBytes,
      );
      let failure: unknown = null;
      try {
        for await (const chunk of decoded.bytes) {
          if (settled) break; // the request broke off meanwhile
          if (out.errored) throw out.errored;
          reader.push(chunk);
          if (out.writableNeedDrain) await once(out, "drain");
        }
      } catch (error) {
        failure = error;
      }
      // The reader's last bytes go out before the file is closed.
      const counted = failure === null ? reader.end() : null;
      out.end();
      await closed;
      if (counted === null) throw failure;
      return counted;
    }
  });
}
