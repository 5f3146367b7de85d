// The server's public settings (GET /api/config).

import { useQuery } from "@tanstack/react-query";
import type { UploadSizes } from "../lib/upload_sizes.ts";
import { configQuery } from "./queries.ts";

/** Upload sizes used until GET /api/config answers: the server's defaults. */
export const DEFAULT_UPLOAD_SIZES: UploadSizes = {
  maxUploadMb: 10,
  maxUncompressedMb: 500,
};

export function useServerConfig() {
  return useQuery(configQuery());
}

/** The upload sizes: the server's settings once known. */
export function useUploadSizes(): UploadSizes & { known: boolean } {
  const { data } = useServerConfig();
  return data && data.maxUploadMb > 0
    ? {
      maxUploadMb: data.maxUploadMb,
      maxUncompressedMb: data.maxUncompressedMb,
      known: true,
    }
    : { ...DEFAULT_UPLOAD_SIZES, known: false };
}
