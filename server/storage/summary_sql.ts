// A job's summary computed by SQLite over the results table: five grouped
// scans of the job's rows, each reading one covering index (see
// SUMMARY_INDEXES; the planner picks them, summary_sql_test.ts checks that it
// does) rather than the wide table rows, so a million rows
// summarise in well under a second and a running job can be asked at the
// polling rate. Read-only: safe beside the writer thread (WAL).
import type { DatabaseSync } from "node:sqlite";
import {
  type AsnCount,
  type CityCount,
  type CompanyCount,
  type CountryCount,
  type FailureCount,
  type JobSummary,
  type NetworkTypeCount,
  SUMMARY_TOP_N,
} from "../../shared/summary.ts";

/**
 * Indexes the summary reads, to append to MIGRATIONS as one new migration.
 * Each covers one grouped query: SQLite walks the index in group order and
 * never sorts or touches the table. Their cost per committed checkpoint is
 * measured by bench/summary_bench.ts.
 */
export const SUMMARY_INDEXES = `
  CREATE INDEX IF NOT EXISTS results_summary_kind
    ON results(job_id, success, isp_filtered, network_type, error);
  CREATE INDEX IF NOT EXISTS results_summary_company
    ON results(job_id, company, isp_filtered);
  CREATE INDEX IF NOT EXISTS results_summary_asn
    ON results(job_id, asn);
  CREATE INDEX IF NOT EXISTS results_summary_country
    ON results(job_id, country, country_code);
  CREATE INDEX IF NOT EXISTS results_summary_city
    ON results(job_id, city, country_code);
`;

type Row = Record<string, string | number | null>;

const num = (value: unknown) => Number(value ?? 0);
const text = (value: unknown) => (value === null ? null : String(value));

// One scan gives the totals, the network types and the failure reasons: the
// groups are few (types x flags, plus one per distinct error text).
const KIND_SQL = `
  SELECT success, isp_filtered, network_type, error, COUNT(*) AS n
  FROM results
  WHERE job_id = ?
  GROUP BY success, isp_filtered, network_type, error`;

const TOP_SQL = {
  companies: `
    SELECT company, COUNT(*) AS n FROM results
    WHERE job_id = ? AND company IS NOT NULL AND isp_filtered = 0
    GROUP BY company ORDER BY n DESC, company LIMIT ?`,
  asns: `
    SELECT asn, COUNT(*) AS n FROM results
    WHERE job_id = ? AND asn IS NOT NULL
    GROUP BY asn ORDER BY n DESC, asn LIMIT ?`,
  // A country name comes with one code; grouping by both keeps the code.
  countries: `
    SELECT country, country_code, COUNT(*) AS n FROM results
    WHERE job_id = ? AND country IS NOT NULL
    GROUP BY country, country_code ORDER BY n DESC, country LIMIT ?`,
  // "Springfield" in several countries are different cities.
  cities: `
    SELECT city, country_code, COUNT(*) AS n FROM results
    WHERE job_id = ? AND city IS NOT NULL
    GROUP BY city, country_code ORDER BY n DESC, city LIMIT ?`,
};

/** Creates the summary's indexes when missing (tests, the bench). */
export function ensureSummaryIndexes(db: DatabaseSync): void {
  db.exec(SUMMARY_INDEXES);
}

/** The summary of one job over the rows stored so far. */
export function summarize(db: DatabaseSync, jobId: number): JobSummary {
  const rows = { total: 0, successful: 0, failed: 0, filtered: 0, kept: 0 };
  const types = new Map<string | null, NetworkTypeCount>();
  const failures = new Map<string, number>();
  for (const r of db.prepare(KIND_SQL).all(jobId) as Row[]) {
    const n = num(r.n);
    const filtered = num(r.isp_filtered) === 1;
    rows.total += n;
    if (filtered) rows.filtered += n;
    if (num(r.success) === 1) {
      rows.successful += n;
      const type = text(r.network_type);
      const entry = types.get(type) ??
        { network_type: type, count: 0, filtered: 0 };
      entry.count += n;
      if (filtered) entry.filtered += n;
      types.set(type, entry);
    } else {
      rows.failed += n;
      const reason = text(r.error) ?? "Unknown error";
      failures.set(reason, (failures.get(reason) ?? 0) + n);
    }
  }
  rows.kept = rows.total - rows.filtered;

  const top = (sql: string) =>
    db.prepare(sql).all(jobId, SUMMARY_TOP_N) as Row[];
  const byCount = <T extends { count: number }>(a: T, b: T) =>
    b.count - a.count;

  return {
    jobId,
    rows,
    networkTypes: [...types.values()].sort(byCount),
    failedByReason: [...failures].map(([reason, count]): FailureCount => ({
      reason,
      count,
    })).sort(byCount),
    topCompanies: top(TOP_SQL.companies).map((r): CompanyCount => ({
      company: String(r.company),
      count: num(r.n),
    })),
    topAsns: top(TOP_SQL.asns).map((r): AsnCount => ({
      asn: String(r.asn),
      count: num(r.n),
    })),
    topCountries: top(TOP_SQL.countries).map((r): CountryCount => ({
      country: String(r.country),
      country_code: text(r.country_code),
      count: num(r.n),
    })),
    topCities: top(TOP_SQL.cities).map((r): CityCount => ({
      city: String(r.city),
      country_code: text(r.country_code),
      count: num(r.n),
    })),
  };
}
