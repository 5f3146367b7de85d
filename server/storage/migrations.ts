// Schema migrations, applied in order at start; user_version records progress.
// Kept as code so `deno compile` embeds them with the program.
import type { DatabaseSync } from "node:sqlite";
import { ENRICHMENT_FIELD_TABLE } from "../../shared/enrichment_fields.ts";
import {
  type Failure,
  failureMessage,
  NAMED_RANGES,
} from "../../shared/failures.ts";
import { RDAP_CACHE_SCHEMA } from "./rdap_cache.ts";
import { DIALECT_MIGRATION } from "../csv/dialect.ts";

const FIELD_COLUMNS = ENRICHMENT_FIELD_TABLE.map((field) =>
  `    ${field.name} ${field.sql},`
).join("\n");

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** A CASE over the stored error text, giving each known failure's `part`. */
function failureFromText(part: (failure: Failure) => string | null): string {
  const known: Failure[] = [
    { kind: "invalid" },
    { kind: "no_data" },
    ...NAMED_RANGES.map((range): Failure => ({ kind: "reserved", range })),
  ];
  const cases = known.map((failure) => {
    const value = part(failure);
    return `WHEN ${sqlText(failureMessage(failure, "job"))} THEN ${
      value === null ? "NULL" : sqlText(value)
    }`;
  });
  return `CASE error ${cases.join(" ")} ELSE NULL END`;
}

const GENERIC_RESERVED = "Reserved address (%), not on the public internet";

// Per-job summary counts of an earlier version (a table no longer read: a
// job's counts are kept with its chunks, results/chunk_output.ts), kept so
// that every database goes through the same steps.
const SUMMARY_MIGRATION = `
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

function backfillSql(where: string): string {
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

export const MIGRATIONS: string[] = [
  `
  CREATE TABLE uploads (
    file_name TEXT PRIMARY KEY,
    original_file_name TEXT NOT NULL,
    size INTEGER NOT NULL,
    headers TEXT NOT NULL,
    row_count INTEGER NOT NULL,
    delimiter TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    file_name TEXT NOT NULL,
    original_file_name TEXT NOT NULL,
    status TEXT NOT NULL,
    total_ips INTEGER NOT NULL DEFAULT 0,
    processed_ips INTEGER NOT NULL DEFAULT 0,
    successful_ips INTEGER NOT NULL DEFAULT 0,
    failed_ips INTEGER NOT NULL DEFAULT 0,
    filtered_ips INTEGER NOT NULL DEFAULT 0,
    ip_column_name TEXT NOT NULL,
    ip_column_index INTEGER NOT NULL,
    headers TEXT NOT NULL,
    delimiter TEXT NOT NULL,
    include_geolocation INTEGER NOT NULL,
    include_domain INTEGER NOT NULL,
    include_company INTEGER NOT NULL,
    include_network INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    completed_at TEXT,
    error TEXT
  );
  CREATE INDEX jobs_status ON jobs(status);
  CREATE TABLE results (
    job_id INTEGER NOT NULL,
    row_index INTEGER NOT NULL,
    original TEXT NOT NULL,
    ip TEXT NOT NULL,
    success INTEGER NOT NULL,
    error TEXT,
    isp_filtered INTEGER NOT NULL,
${FIELD_COLUMNS}
    PRIMARY KEY (job_id, row_index)
  ) WITHOUT ROWID;
  `,
  // A failed row's kind (and reserved range) beside its words; rows stored
  // before this carry only the words, which name their kind one to one.
  `
  ALTER TABLE results ADD COLUMN failure_kind TEXT;
  ALTER TABLE results ADD COLUMN failure_range TEXT;
  UPDATE results SET
    failure_kind = coalesce(${failureFromText((f) => f.kind)},
      CASE WHEN error LIKE ${sqlText(GENERIC_RESERVED)} THEN 'reserved' END),
    failure_range = coalesce(${failureFromText((f) => f.range ?? null)},
      CASE WHEN error LIKE ${sqlText(GENERIC_RESERVED)}
        THEN substr(error, 19, instr(error, '), not') - 19) END)
    WHERE error IS NOT NULL;
  `,
  // Registration data (RDAP) answers by address range.
  RDAP_CACHE_SCHEMA,
  // Per-job counts behind GET /api/jobs/{id}/summary, kept by the result
  // writer; rows stored before this step are counted once here.
  SUMMARY_MIGRATION,
  // The visitor session that made a job or upload. Rows from before have
  // none: visible only in shared mode (README, "Jobs from before sessions").
  `
  ALTER TABLE uploads ADD COLUMN owner TEXT;
  ALTER TABLE jobs ADD COLUMN owner TEXT;
  CREATE INDEX jobs_owner ON jobs(owner);
  `,
  // The "Resolve host names" job option (host-name cells looked up forward).
  `ALTER TABLE jobs ADD COLUMN resolve_hostnames INTEGER NOT NULL DEFAULT 0;`,
  // How a job's host-name lookups ended, committed with its other counters
  // at each progress commit so they survive a resume.
  `
  ALTER TABLE jobs ADD COLUMN hostnames_answered INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE jobs ADD COLUMN hostnames_no_name INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE jobs ADD COLUMN hostnames_timed_out INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE jobs ADD COLUMN hostnames_skipped INTEGER NOT NULL DEFAULT 0;
  `,
  // A job's "always keep" list (AS numbers and CIDRs), as the user typed it.
  `
  ALTER TABLE jobs ADD COLUMN always_keep TEXT;
  `,
  // The "Registration data (online)" job option and how its RDAP lookups
  // ended (answered by a registry, from the cache, failed or skipped).
  `
  ALTER TABLE jobs ADD COLUMN include_registration INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE jobs ADD COLUMN registrations_answered INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE jobs ADD COLUMN registrations_cached INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE jobs ADD COLUMN registrations_failed INTEGER NOT NULL DEFAULT 0;
  `,
  // Where an upload's reader cut it into a job's chunks (JSON); uploads
  // from before are cut at their job's start (chunksOfStoredCsv).
  `ALTER TABLE uploads ADD COLUMN row_chunks TEXT;`,
  // The job's choice for rows the classifier is unsure of (keep, filter).
  `ALTER TABLE jobs ADD COLUMN low_confidence TEXT NOT NULL DEFAULT 'keep';`,
  // A job's chunks, their progress and what each left (storage/
  // sqlite_chunks.ts), as in PostgreSQL mode: a job is run a chunk at a time
  // on a pool of threads, and a chunk's rows are kept as files beside it
  // (results/job_results.ts).
  `
  CREATE TABLE job_chunks (
    job_id INTEGER NOT NULL,
    chunk INTEGER NOT NULL,
    first_row INTEGER NOT NULL,
    row_count INTEGER NOT NULL,
    start_byte INTEGER NOT NULL,
    end_byte INTEGER NOT NULL,
    processed INTEGER NOT NULL DEFAULT 0,
    successful INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    filtered INTEGER NOT NULL DEFAULT 0,
    hostnames_answered INTEGER NOT NULL DEFAULT 0,
    hostnames_no_name INTEGER NOT NULL DEFAULT 0,
    hostnames_timed_out INTEGER NOT NULL DEFAULT 0,
    hostnames_skipped INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0,
    worker TEXT,
    updated_at TEXT,
    run TEXT,
    kept_bytes INTEGER NOT NULL DEFAULT 0,
    meta TEXT,
    PRIMARY KEY (job_id, chunk)
  ) WITHOUT ROWID;
  `,
  // A running chunk's rows by kind so far (JSON), so a running job's
  // summary counts the rows its progress counts.
  `ALTER TABLE job_chunks ADD COLUMN kinds TEXT;`,
  // The databases a job runs on (their versions in one line).
  `ALTER TABLE jobs ADD COLUMN data_version TEXT;`,
  DIALECT_MIGRATION,
];

type Row = Record<string, string | number | null>;

/** Runs SQLite's quick_check; throws when the file is damaged. */
export function checkIntegrity(db: DatabaseSync): void {
  const integrity = db.prepare("PRAGMA quick_check").get() as Row;
  if (integrity.quick_check !== "ok") {
    throw new Error(`integrity check failed: ${integrity.quick_check}`);
  }
}

/** Applies the migrations the database has not had, then new field columns. */
export function migrate(db: DatabaseSync): void {
  const version = Number(
    (db.prepare("PRAGMA user_version").get() as Row).user_version,
  );
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.exec("BEGIN");
    try {
      db.exec(MIGRATIONS[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }
}
