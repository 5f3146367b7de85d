// Uploading a CSV (POST /api/upload, multipart field `file`).

import { useMutation } from "@tanstack/react-query";
import type { UploadResult } from "../../../shared/wire.ts";
import { messageOf, send, throwIfNotOk } from "./http.ts";
import type { MutationToasts } from "./query_client.ts";

export async function uploadFile(file: File): Promise<UploadResult> {
  const body = new FormData();
  body.append("file", file);
  const res = await send("/api/upload", { method: "POST", body });
  await throwIfNotOk(res, "Upload failed");
  return await res.json() as UploadResult;
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
  errorToast: (error) => ({
    title: "Upload failed",
    description: messageOf(error, "There was an error uploading your file"),
    variant: "destructive",
  }),
};

export function useUploadFile() {
  return useMutation({ mutationFn: uploadFile, meta: UPLOAD_TOASTS });
}
