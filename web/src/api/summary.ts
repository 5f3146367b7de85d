// GET /api/jobs/{id}/summary through the app's query client (its default
// query function fetches the key's URL). A running job's summary refreshes
// at the polling rate; pass false once the job is final.
import { useQuery } from "@tanstack/react-query";
import type { JobSummary } from "../../../shared/summary.ts";

export const summaryKey = (id: number) => [`/api/jobs/${id}/summary`];

export function useJobSummary(id: number, pollMs: number | false = false) {
  return useQuery<JobSummary>({
    queryKey: summaryKey(id),
    refetchInterval: pollMs,
    // Keep the last figures on screen while the next ones load.
    placeholderData: (previous) => previous,
    retry: 2,
  });
}
