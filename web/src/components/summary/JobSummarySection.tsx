// The summary of one job, fetched and kept fresh: for the processing view
// (pollMs while the job runs) and the results view (no polling).

import { type ReactNode, useEffect, useRef } from "react";
import { useJobSummary } from "../../api/summary.ts";
import { SummaryPanel } from "./SummaryPanel.tsx";

interface Props {
  jobId: number;
  /** Refresh interval while the job runs; false when it is final. */
  pollMs?: number | false;
  /**
   * A value that changes with the job's progress (its rows processed): the
   * summary is fetched again with it, so its counts are the progress's.
   */
  refreshOn?: number;
  /** Tiles after the row counts. */
  extraTiles?: ReactNode;
}

export function JobSummarySection(
  { jobId, pollMs = false, refreshOn, extraTiles }: Props,
) {
  const summary = useJobSummary(jobId, pollMs);
  // When the job ends, polling stops: fetch its final figures once.
  const wasPolling = useRef(pollMs !== false);
  const { refetch } = summary;
  useEffect(() => {
    if (wasPolling.current && pollMs === false) refetch();
    wasPolling.current = pollMs !== false;
  }, [pollMs, refetch]);
  const lastRefresh = useRef(refreshOn);
  useEffect(() => {
    if (lastRefresh.current === refreshOn) return;
    lastRefresh.current = refreshOn;
    refetch();
  }, [refreshOn, refetch]);
  if (summary.data) {
    return (
      <SummaryPanel
        summary={summary.data}
        running={pollMs !== false}
        extraTiles={extraTiles}
      />
    );
  }
  if (summary.isError) {
    return <p role="status">The summary is not available right now.</p>;
  }
  return <p aria-busy="true">Loading summary…</p>;
}
