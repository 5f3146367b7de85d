// Writes synthetic result rows straight into the results table, for the
// summary's tests and its benchmark: the rows a job would have stored,
// without running one.
import type { DatabaseSync } from "node:sqlite";
import { type Failure, failureMessage } from "../../shared/failures.ts";
import { addToSummary, type SummaryInput } from "./summary_sql.ts";

export interface SeedRow {
  success?: boolean;
  failure?: Failure | null;
  filtered?: boolean;
  country?: string | null;
  country_code?: string | null;
  city?: string | null;
  company?: string | null;
  network_type?: string | null;
  asn?: string | null;
}

const COLUMNS = `job_id, row_index, original, ip, success, error, failure_kind,
  failure_range, isp_filtered, country, country_code, city, company,
  network_type, asn`;
const ROWS_PER_INSERT = 200;

/**
 * Inserts rows for a job from `firstIndex` on, in one transaction, with
 * their summary counts as a chunk's commits add them (unless `counts` is
 * false: rows stored before the counts table existed).
 */
export function seedResults(
  db: DatabaseSync,
  jobId: number,
  rows: Iterable<SeedRow>,
  firstIndex = 0,
  counts = true,
): number {
  const one = `(${Array(15).fill("?").join(", ")})`;
  const full = db.prepare(
    `INSERT INTO results (${COLUMNS}) VALUES ${
      Array(ROWS_PER_INSERT).fill(one).join(", ")
    }`,
  );
  let index = firstIndex;
  let values: (string | number | null)[] = [];
  let pending = 0;
  const inputs: SummaryInput[] = [];
  const flush = () => {
    if (pending === ROWS_PER_INSERT) full.run(...values);
    else if (pending > 0) {
      db.prepare(
        `INSERT INTO results (${COLUMNS}) VALUES ${
          Array(pending).fill(one).join(", ")
        }`,
      ).run(...values);
    }
    values = [];
    pending = 0;
  };
  db.exec("BEGIN");
  try {
    for (const r of rows) {
      const ip = `198.51.${(index >> 8) & 255}.${index & 255}`;
      values.push(
        jobId,
        index++,
        JSON.stringify([ip]),
        ip,
        r.success === false ? 0 : 1,
        r.failure ? failureMessage(r.failure, "job") : null,
        r.failure?.kind ?? null,
        r.failure?.range ?? null,
        r.filtered ? 1 : 0,
        r.country ?? null,
        r.country_code ?? null,
        r.city ?? null,
        r.company ?? null,
        r.network_type ?? null,
        r.asn ?? null,
      );
      inputs.push(toSummaryInput(r));
      if (++pending === ROWS_PER_INSERT) flush();
    }
    flush();
    if (counts) addToSummary(db, jobId, inputs);
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
  return index;
}

/** A seeded row as the summary counts it. */
export function toSummaryInput(r: SeedRow): SummaryInput {
  return {
    success: r.success !== false,
    failure: r.failure ?? null,
    ispFiltered: r.filtered ?? false,
    network_type: r.network_type ?? null,
    company: r.company ?? null,
    asn: r.asn ?? null,
    country: r.country ?? null,
    country_code: r.country_code ?? null,
    city: r.city ?? null,
  };
}

/** `count` copies of a row. */
export function* repeat(count: number, row: SeedRow): Generator<SeedRow> {
  for (let i = 0; i < count; i++) yield row;
}
