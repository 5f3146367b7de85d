// A single IP lookup (GET /api/lookup), for the API page's "Try it".

import { useMutation } from "@tanstack/react-query";
import type { LookupResponse } from "../../../shared/wire.ts";
import { apiRequest } from "./http.ts";

/** A mutation, not a query: each submit looks up again. */
export function useLookup() {
  return useMutation({
    mutationFn: (ip: string) =>
      apiRequest<LookupResponse>(
        "GET",
        `/api/lookup?ip=${encodeURIComponent(ip)}`,
      ),
  });
}
