// The server's public settings (GET /api/config).

import { useQuery } from "@tanstack/react-query";
import { configQuery } from "./queries.ts";

/** Upload limit used until GET /api/config answers: the server's default. */
export const DEFAULT_MAX_UPLOAD_MB = 10;

export function useServerConfig() {
  return useQuery(configQuery());
}

/** The upload limit in MB: the server's setting once known. */
export function useMaxUploadMb(): { maxUploadMb: number; known: boolean } {
  const { data } = useServerConfig();
  return data && data.maxUploadMb > 0
    ? { maxUploadMb: data.maxUploadMb, known: true }
    : { maxUploadMb: DEFAULT_MAX_UPLOAD_MB, known: false };
}
