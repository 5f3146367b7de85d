// A job's summary from counts kept as each chunk commits its rows
// (by kind, company, ASN, country, city) in result_summary, so reading a
// summary never scans the results. Covering indexes on results were
// measured first: fast to read, but several times dearer per stored row.
// (Just over 300 lines: the counts' SQL, kept live or rebuilt, in one place.)
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { type Failure, failureMessage } from "../../shared/failures.ts";
import {
  type JobSummary,
  type NetworkTypeCount,
  SUMMARY_TOP_N,
} from "../../shared/summary.ts";

/** The migration that adds the counts table (append to MIGRATIONS). */
export const SUMMARY_MIGRATION = `
  CREATE TABLE result_summary (
    job_id INTEGER NOT NULL,
    dim TEXT NOT NULL,
    key TEXT NOT NULL,
    code TEXT NOT NULL DEFAULT '',
    n INTEGER NOT NULL,
    PRIMARY KEY (job_id, dim, key, code)
  ) WITHOUT ROWID;
  ${backfillSql("")}
`;

/** Counts for rows already stored (migration, or a job's rows rebuilt). */
export function backfillSql(where: string): string {
  const from = `FROM results ${where}`;
  return `
  INSERT INTO result_summary (job_id, dim, key, code, n)
    SELECT job_id, 'kind', json_array(success, isp_filtered, network_type),
      coalesce(error, ''), COUNT(*) ${from} GROUP BY 1, 3, 4;
  INSERT INTO result_summary (job_id, dim, key, code, n)
    SELECT job_id, 'company', company, '', COUNT(*) ${from}
    ${where ? "AND" : "WHERE"} company IS NOT NULL AND isp_filtered = 0
    GROUP BY 1, 3;
  INSERT INTO result_summary (job_id, dim, key, code, n)
    SELECT job_id, 'asn', asn, '', COUNT(*) ${from}
    ${where ? "AND" : "WHERE"} asn IS NOT NULL GROUP BY 1, 3;
  INSERT INTO result_summary (job_id, dim, key, code, n)
    SELECT job_id, 'country', country, coalesce(country_code, ''), COUNT(*)
    ${from} ${where ? "AND" : "WHERE"} country IS NOT NULL GROUP BY 1, 3, 4;
  INSERT INTO result_summary (job_id, dim, key, code, n)
    SELECT job_id, 'city', city, coalesce(country_code, ''), COUNT(*)
    ${from} ${where ? "AND" : "WHERE"} city IS NOT NULL GROUP BY 1, 3, 4;`;
}

/** Creates the counts table when missing (tests, the bench). */
export function ensureSummaryTable(db: DatabaseSync): void {
  const exists = db.prepare(
    "SELECT 1 FROM sqlite_master WHERE name = 'result_summary'",
  ).get();
  if (!exists) db.exec(SUMMARY_MIGRATION);
}

/**
 * The fields of a stored row the summary counts (an Enrichment has them).
 * A failure is counted by its words as the results' error column stores
 * them, so counts kept live and counts rebuilt from rows agree.
 */
export interface SummaryInput {
  success: boolean;
  failure: Failure | null;
  ispFiltered: boolean;
  network_type: string | null;
  company: string | null;
  asn: string | null;
  country: string | null;
  country_code: string | null;
  city: string | null;
}

// Upserted rows per statement: 5 values each, far below SQLite's limit.
const UPSERT_ROWS = 500;

// Prepared upserts by database and row count: preparing is dearer than
// running, and a batch's row count repeats.
const upserts = new WeakMap<DatabaseSync, Map<number, StatementSync>>();

function upsert(db: DatabaseSync, rows: number): StatementSync {
  let byCount = upserts.get(db);
  if (!byCount) upserts.set(db, byCount = new Map());
  let statement = byCount.get(rows);
  if (!statement) {
    statement = db.prepare(
      `INSERT INTO result_summary (job_id, dim, key, code, n) VALUES ${
        Array(rows).fill("(?, ?, ?, ?, ?)").join(", ")
      } ON CONFLICT (job_id, dim, key, code) DO UPDATE SET n = n + excluded.n`,
    );
    byCount.set(rows, statement);
  }
  return statement;
}

/**
 * Counts of stored rows not yet written to result_summary. The writer adds
 * each batch and flushes inside the transaction of a batch commit every
 * FLUSH_ROWS rows and at the job's end: a flush upserts a key once for many
 * rows (companies and cities repeat), where upserting per 100-row
 * checkpoint cost several times more per row. After a crash the counts lag
 * the rows; a resumed job rebuilds them with rebuildSummary.
 *
 * A running job's flushes may write only what its summary shows (flush's
 * `onlyTop`): every kind, and in each top list every key whose count is at
 * least the SUMMARY_TOP_N-th largest. A key left out lags below that count,
 * so the lists read from the table are exact; the job's last flush writes
 * every count. Upserting every key seen since the last flush was most of
 * the summary's cost (bench/RESULTS.md, issue 11 fourth pass).
 */
export class SummaryCounter {
  // Counts by dimension, code and key, in nested maps: the keys are the
  // rows' own strings (a company's name is one string for all its rows),
  // so counting a row builds no string; a joined key per row cost more
  // than the rest of the writer's work on it. Codes are few (country codes,
  // failures), so a key costs one entry, kept to the job's end.
  #counts = new Map<string, Map<string, Map<string, Count>>>(
    SUMMARY_DIMS.map((dim) => [dim, new Map()]),
  );
  #kindKeys = new Map<string | null, string[]>();
  #rows = 0;
  /** Whether an `onlyTop` flush held counts back. */
  #held = false;

  constructor(readonly flushRows = FLUSH_ROWS) {}

  /** Rows counted since the last flush. */
  get pending(): number {
    return this.#rows;
  }

  /** The kind's key as stored: made once per network type. */
  #kindKey(success: boolean, filtered: boolean, type: string | null): string {
    let keys = this.#kindKeys.get(type);
    if (!keys) {
      keys = [0, 1, 2, 3].map((i) => JSON.stringify([i >> 1, i & 1, type]));
      this.#kindKeys.set(type, keys);
    }
    return keys[(success ? 2 : 0) + (filtered ? 1 : 0)];
  }

  #count(dim: string, key: string, code: string, n: number, stored = 0) {
    const byCode = this.#counts.get(dim)!;
    let byKey = byCode.get(code);
    if (!byKey) byCode.set(code, byKey = new Map());
    const count = byKey.get(key);
    if (count) {
      count.total += n;
      count.pending += n;
    } else byKey.set(key, { total: stored + n, pending: n });
  }

  add(rows: Iterable<SummaryInput>): void {
    for (const r of rows) this.addRows(r, 1);
  }

  /** Counts `n` rows whose counted fields are those of `r`. */
  addRows(r: SummaryInput, n: number): void {
    this.#rows += n;
    this.#count(
      "kind",
      this.#kindKey(r.success, r.ispFiltered, r.network_type),
      r.failure ? failureMessage(r.failure, "job") : "",
      n,
    );
    if (r.company !== null && !r.ispFiltered) {
      this.#count("company", r.company, "", n);
    }
    if (r.asn !== null) this.#count("asn", r.asn, "", n);
    if (r.country !== null) {
      this.#count("country", r.country, r.country_code ?? "", n);
    }
    if (r.city !== null) this.#count("city", r.city, r.country_code ?? "", n);
  }

  /**
   * Counts already in result_summary for the job (a resumed job's, rebuilt
   * from its rows), so that `onlyTop` flushes rank keys by their totals.
   */
  load(db: DatabaseSync, jobId: number): void {
    const rows = db.prepare(
      "SELECT dim, key, code, n FROM result_summary WHERE job_id = ?",
    ).all(jobId) as { dim: string; key: string; code: string; n: number }[];
    for (const { dim, key, code, n } of rows) {
      if (this.#counts.has(dim)) this.#count(dim, key, code, 0, Number(n));
    }
  }

  /**
   * Writes the counts when FLUSH_ROWS are pending, or always if `force`;
   * `onlyTop`: only what the summary shows (see the class).
   */
  flush(db: DatabaseSync, jobId: number, force = false, onlyTop = false): void {
    const nothing = this.#rows === 0 && (onlyTop || !this.#held);
    if (nothing || (!force && this.#rows < this.flushRows)) return;
    const entries: Entry[] = [];
    let held = false;
    for (const [dim, byCode] of this.#counts) {
      const least = onlyTop && dim !== "kind" ? topThreshold(byCode) : 0;
      for (const [code, byKey] of byCode) {
        for (const [key, count] of byKey) {
          if (count.pending === 0) continue;
          if (count.total < least) {
            held = true;
            continue;
          }
          entries.push([dim, key, code, count.pending]);
          count.pending = 0;
        }
      }
    }
    this.#held = held;
    // In the table's key order: SQLite then walks its index forward rather
    // than all over it (a quarter less time a key measured).
    entries.sort(byPrimaryKey);
    for (let from = 0; from < entries.length; from += UPSERT_ROWS) {
      const chunk = entries.slice(from, from + UPSERT_ROWS);
      const values: (string | number)[] = [];
      for (const [dim, key, code, n] of chunk) {
        values.push(jobId, dim, key, code, n);
      }
      upsert(db, chunk.length).run(...values);
    }
    this.#rows = 0;
  }
}

/** A key's rows counted in all, and those not yet written. */
type Count = { total: number; pending: number };

/**
 * The SUMMARY_TOP_N-th largest total of a dimension (0 with fewer keys):
 * the top list holds no key below it.
 */
function topThreshold(byCode: Map<string, Map<string, Count>>): number {
  // The largest totals so far, smallest first.
  const top: number[] = [];
  for (const byKey of byCode.values()) {
    for (const { total } of byKey.values()) {
      if (top.length === SUMMARY_TOP_N && total <= top[0]) continue;
      let at = 0;
      while (at < top.length && top[at] < total) at++;
      top.splice(at, 0, total);
      if (top.length > SUMMARY_TOP_N) top.shift();
    }
  }
  return top.length < SUMMARY_TOP_N ? 0 : top[0];
}

const SUMMARY_DIMS = ["kind", "company", "asn", "country", "city"];

/** A count to upsert: dimension, key, code, rows. */
type Entry = [string, string, string, number];
// SQLite's BINARY order (bytes of UTF-8); code-unit order is close enough
// for a hint, and the counts do not depend on it.
const compareText = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;
function byPrimaryKey(a: Entry, b: Entry): number {
  return compareText(a[0], b[0]) || compareText(a[1], b[1]) ||
    compareText(a[2], b[2]);
}

/**
 * Rows counted in memory before a flush to result_summary (a running job
 * also flushes every SUMMARY_LAG_MS). Each flush upserts every key counted
 * since the last: at 10,000 rows the upserts were a tenth of the writer
 * thread's time, at 50,000 still a sixth; time, not rows, now sets the pace.
 */
export const FLUSH_ROWS = 250_000;

/** Adds rows' counts at once (a batch written outside a job's writer). */
export function addToSummary(
  db: DatabaseSync,
  jobId: number,
  rows: Iterable<SummaryInput>,
): void {
  const counter = new SummaryCounter();
  counter.add(rows);
  counter.flush(db, jobId, true);
}

/** Recounts a job from its stored rows (a job resumed after a crash). */
export function rebuildSummary(db: DatabaseSync, jobId: number): void {
  deleteSummary(db, jobId);
  db.exec(backfillSql(`WHERE job_id = ${Math.trunc(jobId)}`));
}

/** Removes a job's counts (with its results). */
export function deleteSummary(db: DatabaseSync, jobId: number): void {
  db.prepare("DELETE FROM result_summary WHERE job_id = ?").run(jobId);
}

/** A count of one key: `n` may come back as text (PostgreSQL's bigint). */
export type SummaryCount = { key: string; code: string; n: number | string };

/** The dimensions kept as top-N lists. */
export type TopDimension = "company" | "asn" | "country" | "city";

/** The summary of one job over the rows stored so far. */
export function summarize(db: DatabaseSync, jobId: number): JobSummary {
  const top = (dim: string) =>
    db.prepare(
      `SELECT key, code, n FROM result_summary WHERE job_id = ? AND dim = ?
        ORDER BY n DESC, key, code LIMIT ?`,
    ).all(jobId, dim, SUMMARY_TOP_N) as SummaryCount[];
  const kinds = db.prepare(
    `SELECT key, code, n FROM result_summary WHERE job_id = ? AND dim = 'kind'`,
  ).all(jobId) as SummaryCount[];
  return summaryFromCounts(jobId, kinds, top);
}

/**
 * A summary from its counts, wherever they come from (result_summary, or a
 * GROUP BY over the rows): `kinds` keyed by
 * JSON [success, isp_filtered, network_type] with the error as code, and
 * each dimension's top SUMMARY_TOP_N counts, largest first.
 */
export function summaryFromCounts(
  jobId: number,
  kinds: SummaryCount[],
  top: (dim: TopDimension) => SummaryCount[],
): JobSummary {
  const rows = { total: 0, successful: 0, failed: 0, filtered: 0, kept: 0 };
  const types = new Map<string | null, NetworkTypeCount>();
  const failures = new Map<string, number>();
  for (const { key, code, n: count } of kinds) {
    const n = Number(count);
    const [success, filtered, type] = JSON.parse(key) as [
      number,
      number,
      string | null,
    ];
    rows.total += n;
    if (filtered) rows.filtered += n;
    if (success) {
      rows.successful += n;
      const entry = types.get(type) ??
        { network_type: type, count: 0, filtered: 0 };
      entry.count += n;
      if (filtered) entry.filtered += n;
      types.set(type, entry);
    } else {
      rows.failed += n;
      const reason = code || "Unknown error";
      failures.set(reason, (failures.get(reason) ?? 0) + n);
    }
  }
  rows.kept = rows.total - rows.filtered;
  const byCount = <T extends { count: number }>(a: T, b: T) =>
    b.count - a.count;
  const orNull = (code: string) => code === "" ? null : code;

  return {
    jobId,
    rows,
    networkTypes: [...types.values()].sort(byCount),
    failedByReason: [...failures].map(([reason, count]) => ({ reason, count }))
      .sort(byCount),
    topCompanies: top("company").map((r) => ({
      company: r.key,
      count: Number(r.n),
    })),
    topAsns: top("asn").map((r) => ({ asn: r.key, count: Number(r.n) })),
    topCountries: top("country").map((r) => ({
      country: r.key,
      country_code: orNull(r.code),
      count: Number(r.n),
    })),
    topCities: top("city").map((r) => ({
      city: r.key,
      country_code: orNull(r.code),
      count: Number(r.n),
    })),
  };
}
