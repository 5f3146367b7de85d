// POST /api/upload: streams the file to the uploads folder under a name the
// server makes, enforcing the size limit while it streams, and reads the
// header row and counts the data rows on the way.
import { Hono } from "hono";
// @ts-types="npm:@types/busboy@^1.5"
import busboy from "busboy";
import { createWriteStream } from "node:fs";
import { unlink } from "node:fs/promises";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import type { UploadResult } from "../../shared/wire.ts";
import {
  type ChunkParser,
  createChunkParser,
  detectDelimiter,
} from "../csv/csv_rows.ts";
import { ApiError, badRequest } from "../http_error.ts";
import type { AppDeps } from "../app.ts";

export const INVALID_FORMAT = "Please upload a CSV file";
export const NO_HEADERS = "Could not parse CSV headers";
export const tooLarge = (mb: number) =>
  new ApiError(
    413,
    `Please upload a file smaller than ${mb}MB`,
    "File too large",
  );

interface Received {
  originalFileName: string;
  size: number;
  headers: string[];
  rowCount: number;
  delimiter: string;
}

export function uploadRoutes({ config, store }: AppDeps) {
  const app = new Hono();
  const maxBytes = Math.floor(config.maxUploadMb * 1024 * 1024);
  const uploadsDir = join(config.dataDir, "uploads");

  app.post("/", async (c) => {
    const type = c.req.header("content-type") ?? "";
    if (!type.toLowerCase().startsWith("multipart/form-data")) {
      throw badRequest(
        'Send the file as multipart/form-data in the field "file"',
      );
    }
    // Refuse at once what cannot fit, before reading any of it.
    const length = Number(c.req.header("content-length") ?? 0);
    if (length > maxBytes + 1024 * 1024) throw tooLarge(config.maxUploadMb);
    if (!c.req.raw.body) throw badRequest("The upload is empty");

    const fileName = `${crypto.randomUUID()}.csv`;
    const path = join(uploadsDir, fileName);
    let received: Received;
    try {
      received = await receive(c.req.raw.body, type, path, maxBytes, config);
    } catch (error) {
      await unlink(path).catch(() => {});
      // The rest of the body is not read: close the connection rather than
      // leave the client sending into a stalled socket.
      c.header("connection", "close");
      throw error;
    }
    const result: UploadResult = {
      fileName,
      originalFileName: received.originalFileName,
      size: received.size,
      headers: received.headers,
      rowCount: received.rowCount,
    };
    store.addUpload({
      ...result,
      delimiter: received.delimiter,
      createdAt: new Date().toISOString(),
    });
    return c.json(result, 201);
  });
  return app;
}

/**
 * Rows wider than the header row keep their extra cells: the header gains
 * names for them ("column_4", ...) so the download loses nothing.
 */
export function withExtraColumns(headers: string[], width: number): string[] {
  const names = [...headers];
  for (let i = headers.length; i < width; i++) names.push(`column_${i + 1}`);
  return names;
}

/** The text encoding a byte order mark announces; UTF-8 otherwise. */
function encodingOf(start: Uint8Array): string {
  if (start[0] === 0xff && start[1] === 0xfe) return "utf-16le";
  if (start[0] === 0xfe && start[1] === 0xff) return "utf-16be";
  return "utf-8";
}

function receive(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  path: string,
  maxBytes: number,
  config: AppDeps["config"],
): Promise<Received> {
  return new Promise<Received>((resolve, reject) => {
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
        limits: { files: 1, fileSize: maxBytes, fields: 20, parts: 30 },
      });
    } catch {
      throw badRequest("The upload is not valid multipart/form-data");
    }
    const source = Readable.from(body);
    source.on("error", () => fail(badRequest("The upload was interrupted")));

    parser.on("file", (field, file, info) => {
      if (field !== "file" || sawFile) {
        file.resume();
        return;
      }
      sawFile = true;
      const originalFileName = basename(
        (info.filename ?? "").replaceAll("\\", "/"),
      ).slice(0, 255);
      if (!originalFileName.toLowerCase().endsWith(".csv")) {
        file.resume();
        fail(badRequest(INVALID_FORMAT, "Invalid file format"));
        return;
      }
      const out = createWriteStream(path);
      let size = 0;
      let count = 0;
      let headers: string[] | null = null;
      let width = 0; // the widest data row
      let delimiter = ",";
      let rows: ChunkParser | null = null;
      // Text is written as UTF-8 whatever it came in (UTF-16 is recognised
      // by its byte order mark), so the job reads one encoding.
      let decoder: TextDecoder | null = null;
      const encoder = new TextEncoder();
      const take = (parsed: string[][]) => {
        for (const row of parsed) {
          if (headers === null) headers = row;
          else {
            count++;
            if (row.length > width) width = row.length;
          }
        }
      };
      // The delimiter is guessed from the first 64 KiB, then fixed, so the
      // job later reads the file exactly as it was counted here.
      let sample = "";
      const startRows = () => {
        delimiter = detectDelimiter(sample);
        rows = createChunkParser(delimiter);
        take(rows.push(sample));
      };
      const write = (text: string) => {
        if (!text) return;
        if (!out.write(encoder.encode(text))) {
          file.pause();
          out.once("drain", () => file.resume());
        }
        if (rows) take(rows.push(text));
        else {
          sample += text;
          if (sample.length >= 65536) startRows();
        }
      };
      file.on("data", (chunk: Uint8Array) => {
        size += chunk.length;
        decoder ??= new TextDecoder(encodingOf(chunk));
        write(decoder.decode(chunk, { stream: true }));
      });
      file.on("limit", () => fail(tooLarge(config.maxUploadMb)));
      file.on("end", () => {
        if (settled) return;
        write(decoder?.decode() ?? "");
        if (!rows) startRows();
        take(rows!.end());
        out.end();
      });
      out.on("error", (error) => fail(error));
      out.on("finish", () => {
        if (settled) return;
        const names: string[] = headers ?? [];
        if (names.length === 0 || names.every((h) => h.trim() === "")) {
          fail(badRequest(NO_HEADERS));
          return;
        }
        settled = true;
        resolve({
          originalFileName,
          size,
          headers: withExtraColumns(names, width),
          rowCount: count,
          delimiter,
        });
      });
    });
    parser.on(
      "error",
      () => fail(badRequest("The upload is not valid multipart/form-data")),
    );
    parser.on("close", () => {
      if (!sawFile) fail(badRequest('No file was sent in the field "file"'));
    });
    source.pipe(parser);
  });
}
