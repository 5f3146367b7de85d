// POST /api/upload: streams the file to the uploads folder under a name the
// server makes, enforcing the size limit while it streams, and reads the
// header row and counts the data rows on the way.
import { CUT_ROWS } from "../csv/row_chunks.ts";
import { unlink } from "node:fs/promises";
import { join } from "node:path";
import type { UploadResult as UploadAnswer } from "../../shared/wire.ts";
import type { AppDeps } from "../deps.ts";
import { ApiError, badRequest } from "../http_error.ts";
import { isDiskFull, uploadDiskFullMessage } from "../storage/disk_full.ts";
import { apiRouter } from "./api_router.ts";
import {
  errorResponse,
  jobRoute,
  jsonResponse,
} from "./documented_responses.ts";
import { UploadResult } from "./job_schemas.ts";
import { UploadQuota } from "./upload_quota.ts";
import { xlsxUploadNotice } from "../jobs/download_xlsx.ts";
import { receiveCsvUpload, uploadOverLimit } from "./multipart_upload.ts";

/** Room for the multipart framing around a file at the limit. */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

export const uploadRoute = jobRoute({
  method: "post",
  path: "/upload",
  operationId: "uploadFile",
  summary: "Upload a table of addresses",
  description: "Streams the file to the server, reads its header row and " +
    "counts its rows. Accepts .csv, .tsv, .txt, .xlsx (first sheet), and " +
    ".csv.gz or .zip (one CSV inside), decompressed while streaming: " +
    "MAX_UPLOAD_MB limits the bytes sent, MAX_UNCOMPRESSED_MB what they " +
    "expand to.",
  request: {
    body: {
      required: true,
      content: {
        // A plain schema object, not zod: the handler streams the body
        // itself, so no validator may read it first.
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: { file: { type: "string", format: "binary" } },
            required: ["file"],
          },
        },
      },
    },
  },
  responses: {
    201: jsonResponse(UploadResult, "The stored upload"),
    400: errorResponse(
      "Not a file the server reads, unreadable, not multipart, no header " +
        "row, or a row over MAX_ROW_BYTES",
    ),
    413: errorResponse(
      "Over MAX_UPLOAD_MB, or expands past MAX_UNCOMPRESSED_MB",
    ),
    429: errorResponse(
      "The session's uploads of the last 24 hours are at UPLOAD_QUOTA_MB",
    ),
    507: errorResponse("The disk holding the data directory is full"),
  },
});

export function uploadRoutes(
  { config, store, blobs }: Pick<AppDeps, "config" | "store" | "blobs">,
) {
  const app = apiRouter();
  const maxBytes = Math.floor(config.maxUploadMb * 1024 * 1024);
  const limits = {
    maxBytes,
    maxUploadMb: config.maxUploadMb,
    maxUncompressedBytes: Math.floor(config.maxUncompressedMb * 1024 * 1024),
    chunkRows: CUT_ROWS,
    maxRowBytes: config.maxRowBytes,
  };
  const uploadsDir = join(config.dataDir, "uploads");
  const quota = new UploadQuota(config.uploadQuotaMb * 1024 * 1024);

  app.openapi(uploadRoute, async (c) => {
    const type = c.req.header("content-type") ?? "";
    if (!type.toLowerCase().startsWith("multipart/form-data")) {
      throw badRequest(
        'Send the file as multipart/form-data in the field "file"',
      );
    }
    // Refuse at once what cannot fit, before reading any of it.
    const length = Number(c.req.header("content-length") ?? 0);
    if (length > maxBytes + MULTIPART_OVERHEAD_BYTES) {
      throw uploadOverLimit(config.maxUploadMb);
    }
    if (!c.req.raw.body) throw badRequest("The upload is empty");
    const session = c.get("sessionId");
    quota.check(session);

    const fileName = `${crypto.randomUUID()}.csv`;
    const path = join(uploadsDir, fileName);
    const received = await receiveCsvUpload(c.req.raw.body, type, path, limits)
      .catch(async (error) => {
        await unlink(path).catch(() => {});
        // The rest of the body is not read: close the connection rather
        // than leave the client sending into a stalled socket.
        c.header("connection", "close");
        throw diskFullOr(error);
      });
    try {
      quota.check(session, received.size);
    } catch (error) {
      await unlink(path).catch(() => {});
      throw error;
    }
    quota.add(session, received.size);
    const answer: UploadAnswer = {
      fileName,
      originalFileName: received.originalFileName,
      size: received.size,
      headers: received.headers,
      rowCount: received.rowCount,
      sampleRows: received.sampleRows,
      notice: xlsxUploadNotice(received.headers.length),
    };
    const { chunks } = received;
    // Workers on other machines read the upload from shared storage.
    if (blobs) await blobs.put(fileName, (await Deno.open(path)).readable);
    const { sampleRows: _, notice: _notice, ...upload } = answer;
    try {
      await store.addUpload({
        ...upload,
        dialect: received.dialect,
        chunks,
        createdAt: new Date().toISOString(),
        // Only this session may start a job from it (canUseUpload).
        owner: session,
      });
    } catch (error) {
      await unlink(path).catch(() => {});
      await blobs?.delete(fileName).catch(() => {});
      throw diskFullOr(error);
    }
    return c.json(answer, 201);
  });
  // A full disk is said plainly (507); other errors pass on as they are.
  const diskFullOr = (error: unknown) =>
    isDiskFull(error)
      ? new ApiError(507, uploadDiskFullMessage(config.dataDir), "Disk full")
      : error;
  return app;
}
