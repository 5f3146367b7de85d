// A job's rows as one set of counts, for every place that shows them (the
// summary's tiles, the .xlsx Summary sheet): the rows are the kept ones (in
// the download, failed rows included, with their reason) and the ones left
// out of it by network type; failed rows are a part of the kept ones.
import { NETWORK_TYPE_LABELS, type NetworkType } from "./network_types.ts";
import type { JobSummary } from "./summary.ts";

export interface RowCountPart {
  /** Stable name for tests and styles: kept, failed, left-out-<type>. */
  key: string;
  label: string;
  count: number;
  /** What the count means for the download. */
  note: string;
}

export interface RowCounts {
  total: number;
  /** What the total is: its parts, and its distinct addresses once known. */
  totalNote: string;
  /** Kept, then left out by type: their counts add up to `total`. */
  parts: RowCountPart[];
  /** Failed rows: part of the kept ones. */
  failed: RowCountPart;
}

/** The network types the filter leaves out, always shown (even at 0). */
const LEFT_OUT_TYPES: NetworkType[] = ["consumer_isp", "mobile"];

const n = (count: number) => count.toLocaleString("en-US");

/** total = kept + each left-out type; failed rows are among the kept. */
export function rowCountParts(summary: JobSummary): RowCounts {
  const { total, kept, failed } = summary.rows;
  const types = summary.networkTypes.filter((type) =>
    type.filtered > 0 ||
    LEFT_OUT_TYPES.includes(type.network_type as NetworkType)
  );
  for (const type of LEFT_OUT_TYPES) {
    if (!types.some((t) => t.network_type === type)) {
      types.push({ network_type: type, count: 0, filtered: 0 });
    }
  }
  const leftOut = types
    .sort((a, b) =>
      rank(a.network_type) - rank(b.network_type) || b.filtered - a.filtered
    )
    .map((type): RowCountPart => {
      const keptToo = type.count - type.filtered;
      return {
        key: `left-out-${type.network_type ?? "unknown"}`,
        label: type.network_type === null
          ? "Unknown network"
          : NETWORK_TYPE_LABELS[type.network_type as NetworkType] ??
            type.network_type,
        count: type.filtered,
        note: "left out of the download" +
          (keptToo > 0
            ? `; ${n(keptToo)} more kept (the classifier was unsure, or ` +
              "the job's Always keep list)"
            : ""),
      };
    });
  const { distinctAddresses } = summary;
  return {
    total,
    totalNote: distinctAddresses === undefined
      ? "kept + left out"
      : `kept + left out; ${n(distinctAddresses)} distinct address${
        distinctAddresses === 1 ? "" : "es"
      }`,
    parts: [
      {
        key: "kept",
        label: "Kept in the download",
        count: kept,
        note: failed > 0
          ? `rows of the CSV and .xlsx; ${n(failed)} of them failed`
          : "rows of the CSV and .xlsx",
      },
      ...leftOut,
    ],
    failed: {
      key: "failed",
      label: "Failed",
      count: failed,
      note: "kept in the download with the reason",
    },
  };
}

function rank(type: string | null): number {
  const order = LEFT_OUT_TYPES.indexOf(type as NetworkType);
  return order === -1 ? Number.MAX_SAFE_INTEGER : order;
}
