// A job's summary and filtered preview on PostgreSQL. The SQLite store keeps
// summary counts as its writer commits (result_summary); here they are
// counted when asked, with GROUP BY over the job's own results partition,
// and the preview filters are the same WHERE clauses (preview_filters.ts)
// with ILIKE for the text search.
import type postgres from "postgres";
import type { JobSummary } from "../../../shared/summary.ts";
import { SUMMARY_TOP_N } from "../../../shared/summary.ts";
import {
  COUNT_CAP,
  filterWhere,
  type PreviewFilter,
} from "../preview_filters.ts";
import type { Row } from "../job_rows.ts";
import type { StoredResult } from "../result_rows.ts";
import type { PreviewRows } from "../store_interface.ts";
import {
  type SummaryCount,
  summaryFromCounts,
  type TopDimension,
} from "../summary_sql.ts";
import { partitionName } from "./pg_schema.ts";

// Per dimension: the key, its code, and which rows count (as result_summary
// counts them: companies of kept rows only).
const TOP_QUERIES: Record<TopDimension, [string, string, string]> = {
  company: ["company", "''", "company IS NOT NULL AND isp_filtered = 0"],
  asn: ["asn", "''", "asn IS NOT NULL"],
  country: ["country", "coalesce(country_code, '')", "country IS NOT NULL"],
  city: ["city", "coalesce(country_code, '')", "city IS NOT NULL"],
};

/** `?` placeholders (SQLite's) as $1, $2, ... */
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

export async function pgJobSummary(
  sql: postgres.Sql,
  jobId: number,
): Promise<JobSummary> {
  const table = partitionName(jobId);
  const kindRows = await sql.unsafe<
    {
      success: number;
      filtered: number;
      type: string | null;
      code: string;
      n: string;
    }[]
  >(
    `SELECT success, isp_filtered AS filtered, network_type AS type,
      coalesce(error, '') AS code, COUNT(*) AS n FROM ${table}
      GROUP BY 1, 2, 3, 4`,
  );
  const kinds: SummaryCount[] = kindRows.map((r) => ({
    key: JSON.stringify([r.success, r.filtered, r.type]),
    code: r.code,
    n: r.n,
  }));
  const tops = new Map<TopDimension, SummaryCount[]>();
  for (const [dim, [key, code, where]] of Object.entries(TOP_QUERIES)) {
    // Ties in the order SQLite gives them: by byte, not by locale.
    const rows = await sql.unsafe<SummaryCount[]>(
      `SELECT ${key} AS key, ${code} AS code, COUNT(*) AS n FROM ${table}
        WHERE ${where} GROUP BY 1, 2
        ORDER BY COUNT(*) DESC, ${key} COLLATE "C", ${code} COLLATE "C"
        LIMIT ${SUMMARY_TOP_N}`,
    );
    tops.set(dim as TopDimension, Array.from(rows));
  }
  return summaryFromCounts(jobId, kinds, (dim) => tops.get(dim) ?? []);
}

export async function pgPreviewRows(
  sql: postgres.Sql,
  jobId: number,
  filter: PreviewFilter,
  page: number,
  pageSize: number,
  toResult: (row: Row) => StoredResult,
): Promise<PreviewRows> {
  const table = partitionName(jobId);
  const where = filterWhere(filter);
  // LIKE in SQLite ignores the case of ASCII letters; ILIKE does here.
  const clause = numbered(`WHERE true${where.sql}`).replaceAll(
    " LIKE ",
    " ILIKE ",
  );
  const cap = filter.text ? ` LIMIT ${COUNT_CAP + 1}` : "";
  const [{ n }] = await sql.unsafe<{ n: string }[]>(
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${table} ${clause}${cap}) m`,
    where.params,
  );
  let total = Number(n);
  const totalAtLeast = total > COUNT_CAP && !!filter.text;
  if (totalAtLeast) total = COUNT_CAP;
  const offset = (Math.max(1, page) - 1) * pageSize;
  const rows = await sql.unsafe<Row[]>(
    `SELECT * FROM ${table} ${clause} ORDER BY row_index
      LIMIT ${Math.trunc(pageSize)} OFFSET ${Math.trunc(offset)}`,
    where.params,
  );
  return { rows: rows.map(toResult), total, totalAtLeast };
}
