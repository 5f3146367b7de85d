// Server-side filters for a job's results preview: by network type, by kept
// or filtered, and a text search in company or ASN, paged in input order,
// so a user can find every row of one company in a large job. Totals come
// from the summary counts (server/storage/summary_sql.ts) where they can, so
// only a text search scans the job's rows.
import type { DatabaseSync } from "node:sqlite";
import { NETWORK_TYPES } from "../../shared/network_types.ts";

export { NETWORK_TYPES };

export interface PreviewFilter {
  /** A network type, or "unknown" for rows without one. */
  networkType?: (typeof NETWORK_TYPES)[number] | "unknown";
  /** "kept": in the download; "filtered": left out as consumer networks. */
  status?: "kept" | "filtered";
  /** Part of the company or the ASN ("google", "AS15169", "15169"). */
  text?: string;
}

export const MAX_FILTER_TEXT = 200;

/**
 * Reads the filter from query parameters `network_type`, `status` and `q`;
 * an error message for a value it does not know.
 */
export function parsePreviewFilter(
  query: URLSearchParams,
): { filter: PreviewFilter } | { error: string } {
  const filter: PreviewFilter = {};
  const type = query.get("network_type")?.trim();
  if (type) {
    if (
      type !== "unknown" && !(NETWORK_TYPES as readonly string[]).includes(type)
    ) {
      return {
        error: `network_type must be one of ${
          [...NETWORK_TYPES, "unknown"].join(", ")
        }`,
      };
    }
    filter.networkType = type as PreviewFilter["networkType"];
  }
  const status = query.get("status")?.trim();
  if (status) {
    if (status !== "kept" && status !== "filtered") {
      return { error: "status must be kept or filtered" };
    }
    filter.status = status;
  }
  const text = query.get("q")?.trim();
  if (text) {
    if (text.length > MAX_FILTER_TEXT) {
      return { error: `q must be at most ${MAX_FILTER_TEXT} characters` };
    }
    filter.text = text;
  }
  return { filter };
}

/** LIKE pattern for "contains", with %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The WHERE clause (after job_id = ?) and its parameters. */
export function filterWhere(
  filter: PreviewFilter,
): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  if (filter.networkType === "unknown") {
    parts.push("success = 1 AND network_type IS NULL");
  } else if (filter.networkType) {
    parts.push("network_type = ?");
    params.push(filter.networkType);
  }
  if (filter.status) {
    parts.push(`isp_filtered = ${filter.status === "filtered" ? 1 : 0}`);
  }
  if (filter.text) {
    // LIKE is case-insensitive for ASCII letters, as a search box should be.
    parts.push(
      "(company LIKE ? ESCAPE '\\' OR asn LIKE ? ESCAPE '\\')",
    );
    const pattern = containsPattern(filter.text);
    params.push(pattern, pattern);
  }
  return {
    sql: parts.length > 0 ? ` AND ${parts.join(" AND ")}` : "",
    params,
  };
}

export interface FilteredPage {
  /** Raw result rows (all columns), in input order. */
  rows: Record<string, string | number | null>[];
  /** Rows matching the filter, for the page count. */
  total: number;
  /** True when a text search stopped counting at COUNT_CAP matches. */
  totalAtLeast: boolean;
}

/** A text search counts matches up to this many ("10,000+"). */
export const COUNT_CAP = 10_000;

/**
 * Rows matching a filter without text, from the job's summary counts
 * (result_summary's "kind" rows): no scan of the results.
 */
function countFromSummary(
  db: DatabaseSync,
  jobId: number,
  filter: PreviewFilter,
): number {
  const kinds = db.prepare(
    `SELECT key, n FROM result_summary WHERE job_id = ? AND dim = 'kind'`,
  ).all(jobId) as { key: string; n: number }[];
  let total = 0;
  for (const { key, n } of kinds) {
    const [success, filtered, type] = JSON.parse(key) as [
      number,
      number,
      string | null,
    ];
    if (filter.status && (filtered === 1) !== (filter.status === "filtered")) {
      continue;
    }
    if (filter.networkType === "unknown" && (!success || type !== null)) {
      continue;
    }
    if (
      filter.networkType && filter.networkType !== "unknown" &&
      type !== filter.networkType
    ) continue;
    total += Number(n);
  }
  return total;
}

/** One page (1-based) of a job's rows matching the filter. */
export function filteredPage(
  db: DatabaseSync,
  jobId: number,
  filter: PreviewFilter,
  page: number,
  pageSize: number,
): FilteredPage {
  const where = filterWhere(filter);
  let total: number;
  let totalAtLeast = false;
  if (filter.text) {
    // A text search scans; counting stops at the cap.
    total = Number(
      (db.prepare(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM results
          WHERE job_id = ?${where.sql} LIMIT ?)`,
      ).get(jobId, ...where.params, COUNT_CAP + 1) as { n: number }).n,
    );
    if (total > COUNT_CAP) {
      total = COUNT_CAP;
      totalAtLeast = true;
    }
  } else total = countFromSummary(db, jobId, filter);
  const rows = db.prepare(
    `SELECT * FROM results WHERE job_id = ?${where.sql}
      ORDER BY row_index LIMIT ? OFFSET ?`,
  ).all(
    jobId,
    ...where.params,
    pageSize,
    (Math.max(1, page) - 1) * pageSize,
  ) as FilteredPage["rows"];
  return { rows, total, totalAtLeast };
}
