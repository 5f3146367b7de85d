// Server-side filters for a job's results preview: by network type, by kept
// or filtered, and a text search in company or ASN, paged in input order,
// so a user can find every row of one company in a large job.
import type { DatabaseSync } from "node:sqlite";

export const NETWORK_TYPES = [
  "consumer_isp",
  "mobile",
  "hosting",
  "business",
  "education",
  "government",
] as const;

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
  const total = Number(
    (db.prepare(
      `SELECT COUNT(*) AS n FROM results WHERE job_id = ?${where.sql}`,
    ).get(jobId, ...where.params) as { n: number }).n,
  );
  const rows = db.prepare(
    `SELECT * FROM results WHERE job_id = ?${where.sql}
      ORDER BY row_index LIMIT ? OFFSET ?`,
  ).all(
    jobId,
    ...where.params,
    pageSize,
    (Math.max(1, page) - 1) * pageSize,
  ) as FilteredPage["rows"];
  return { rows, total };
}
