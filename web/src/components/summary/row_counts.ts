// A job's rows as one set of counts whose parts add up to the total: kept in
// the download, left out of it by network type, failed. Pure, so tests run
// it in Deno.
import type { JobSummary } from "../../../../shared/summary.ts";

export interface RowCountPart {
  /** Stable name for tests and styles: kept, failed, left-out-<type>. */
  key: string;
  label: string;
  count: number;
  /** What the count means for the download. */
  note: string;
}

/** Words for the network types the filter leaves out of the download. */
const LEFT_OUT_LABELS: Record<string, string> = {
  consumer_isp: "Consumer broadband",
  mobile: "Mobile",
};

/** total = the parts' sum: kept + each left-out type + failed. */
export function rowCountParts(
  summary: JobSummary,
): { total: number; parts: RowCountPart[] } {
  const leftOut = summary.networkTypes
    .filter((type) => type.filtered > 0)
    .sort((a, b) =>
      rank(a.network_type) - rank(b.network_type) || b.filtered - a.filtered
    )
    .map((type): RowCountPart => ({
      key: `left-out-${type.network_type ?? "unknown"}`,
      label: LEFT_OUT_LABELS[type.network_type ?? ""] ??
        type.network_type ?? "Unknown network",
      count: type.filtered,
      note: "left out of the download",
    }));
  const leftOutTotal = leftOut.reduce((sum, part) => sum + part.count, 0);
  // Consumer broadband and mobile are the filter's two kinds: always shown,
  // so a reader sees that none were left out.
  for (const type of Object.keys(LEFT_OUT_LABELS)) {
    if (!leftOut.some((part) => part.key === `left-out-${type}`)) {
      leftOut.splice(rank(type), 0, {
        key: `left-out-${type}`,
        label: LEFT_OUT_LABELS[type],
        count: 0,
        note: "left out of the download",
      });
    }
  }
  const { successful, failed } = summary.rows;
  return {
    total: successful + failed,
    parts: [
      {
        key: "kept",
        label: "Kept in the download",
        count: successful - leftOutTotal,
        note: "rows with enrichment data",
      },
      ...leftOut,
      {
        key: "failed",
        label: "Failed",
        count: failed,
        note: "in the download with the reason",
      },
    ],
  };
}

function rank(type: string | null): number {
  const order = Object.keys(LEFT_OUT_LABELS).indexOf(type ?? "");
  return order === -1 ? Number.MAX_SAFE_INTEGER : order;
}
