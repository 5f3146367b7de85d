// Takes the one file of a multipart/form-data upload (field "file") off
// the request stream, writes it to disk as it arrives and stops at the size
// limit, without holding the file in memory.
// @ts-types="npm:@types/busboy@^1.5"
import busboy from "busboy";
import { createWriteStream } from "node:fs";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { ApiError, badRequest } from "../http_error.ts";
import { type CountedCsv, CsvUploadReader } from "./csv_upload_reader.ts";

export const NOT_A_CSV_FILE = "Please upload a CSV file";
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
      if (!originalFileName.toLowerCase().endsWith(".csv")) {
        file.resume();
        fail(badRequest(NOT_A_CSV_FILE, "Invalid file format"));
        return;
      }
      const out = createWriteStream(path);
      const reader = new CsvUploadReader((bytes) => {
        if (!out.write(bytes)) {
          file.pause();
          out.once("drain", () => file.resume());
        }
      });
      let counted: CountedCsv;
      file.on("data", (chunk: Uint8Array) => reader.push(chunk));
      file.on("limit", () => fail(uploadOverLimit(limits.maxUploadMb)));
      file.on("end", () => {
        if (settled) return;
        counted = reader.end();
        out.end();
      });
      out.on("error", (error) => fail(error));
      out.on("finish", () => {
        if (settled) return;
        const names = counted.headerRow;
        if (names.length === 0 || names.every((h) => h.trim() === "")) {
          fail(badRequest(NO_HEADER_ROW));
          return;
        }
        settled = true;
        resolve({ ...counted, originalFileName });
      });
    });
    parser.on("error", () => fail(badRequest(NOT_MULTIPART)));
    parser.on("close", () => {
      if (!sawFile) fail(badRequest('No file was sent in the field "file"'));
    });
    source.pipe(parser);
  });
}
