// GET /api/jobs/{id}/summary. A running job's summary refreshes at the
// polling rate; pass false once the job is final.
import { useQuery } from "@tanstack/react-query";
import type { JobSummary } from "../../../shared/summary.ts";
import { getJson } from "./http.ts";

/** Under the job's key, so invalidating ["/api/jobs"] reaches it too. */
export const summaryKey = (id: number) => ["/api/jobs", id, "summary"] as const;

export function useJobSummary(id: number, pollMs: number | false = false) {
  return useQuery<JobSummary>({
    queryKey: summaryKey(id),
    queryFn: () =>
      getJson<JobSummary>(
        `/api/jobs/${id}/summary`,
        "Failed to get the job's summary",
      ),
    refetchInterval: pollMs,
    // Figures cached while the job ran are not its final ones.
    refetchOnMount: "always",
    // Keep the last figures on screen while the next ones load.
    placeholderData: (previous) => previous,
    retry: 2,
  });
}
