// Uploading a file (POST /api/upload, multipart field `file`). XMLHttpRequest
// rather than fetch: fetch reports no upload progress.

import { useMutation } from "@tanstack/react-query";
import type { UploadResult } from "../../../shared/wire.ts";
import {
  ApiError,
  errorBodyText,
  messageOf,
  NETWORK_ERROR_MESSAGE,
} from "./http.ts";
import type { MutationToasts } from "./query_client.ts";

/** Bytes of the file sent so far, of `total`. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** The user cancelled the upload: no error to show. */
export class UploadCancelled extends Error {
  override name = "UploadCancelled";
  constructor() {
    super("Upload cancelled");
  }
}

export interface UploadRequest {
  file: File;
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting it cancels the upload; the server removes the partial file. */
  signal?: AbortSignal;
}

export function uploadFile(
  { file, onProgress, signal }: UploadRequest,
): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadCancelled());
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/upload");
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) =>
      onProgress?.({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : file.size,
      });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(JSON.parse(xhr.responseText) as UploadResult);
        return;
      }
      const text = errorBodyText(xhr.responseText) || xhr.statusText;
      reject(
        new ApiError(`Upload failed: ${xhr.status} ${text}`, xhr.status),
      );
    };
    xhr.onerror = () => reject(new ApiError(NETWORK_ERROR_MESSAGE, 0));
    xhr.onabort = () => reject(new UploadCancelled());
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const body = new FormData();
    body.append("file", file);
    xhr.send(body);
  });
}

/** A file whose header row could not be read uploads, but is no use. */
export function hasHeaders(result: UploadResult): boolean {
  return (result.headers?.length ?? 0) > 0;
}

const UPLOAD_TOASTS: MutationToasts<UploadResult> = {
  successToast: (result) =>
    hasHeaders(result) ? { title: "File uploaded successfully" } : {
      title: "Upload failed",
      description: "Could not parse CSV headers",
      variant: "destructive",
    },
  errorToast: (error) =>
    error instanceof UploadCancelled ? null : {
      title: "Upload failed",
      description: messageOf(error, "There was an error uploading your file"),
      variant: "destructive",
    },
};

export function useUploadFile() {
  return useMutation({ mutationFn: uploadFile, meta: UPLOAD_TOASTS });
}
