// Schema migrations, applied in order at start; user_version records progress.
// Kept as code so `deno compile` embeds them with the program.
import type { DatabaseSync } from "node:sqlite";
import { RDAP_CACHE_SCHEMA } from "./rdap_cache.ts";
import { DIALECT_MIGRATION } from "../csv/dialect.ts";

/**
 * The schema as the oldest data directory this version reads has it
 * (user_version BASE_VERSION), made at once in a new database; MIGRATIONS
 * follow it. A database between (an early development version's) is
 * refused.
 */
export const BASE_VERSION = 12;
export const BASE_SCHEMA = `
  CREATE TABLE uploads (
    file_name TEXT PRIMARY KEY,
    original_file_name TEXT NOT NULL,
    size INTEGER NOT NULL,
    headers TEXT NOT NULL,
    row_count INTEGER NOT NULL,
    delimiter TEXT NOT NULL,
    created_at TEXT NOT NULL,
    -- The visitor session that made it (none: visible in shared mode only).
    owner TEXT,
    -- Where the upload's reader cut it into a job's chunks (JSON).
    row_chunks TEXT
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
    error TEXT,
    owner TEXT,
    resolve_hostnames INTEGER NOT NULL DEFAULT 0,
    -- How its host-name lookups ended, committed with its other counters.
    hostnames_answered INTEGER NOT NULL DEFAULT 0,
    hostnames_no_name INTEGER NOT NULL DEFAULT 0,
    hostnames_timed_out INTEGER NOT NULL DEFAULT 0,
    hostnames_skipped INTEGER NOT NULL DEFAULT 0,
    -- The "always keep" list (AS numbers and CIDRs), as the user typed it.
    always_keep TEXT,
    -- Registration data (online), and how its RDAP lookups ended.
    include_registration INTEGER NOT NULL DEFAULT 0,
    registrations_answered INTEGER NOT NULL DEFAULT 0,
    registrations_cached INTEGER NOT NULL DEFAULT 0,
    registrations_failed INTEGER NOT NULL DEFAULT 0,
    -- The choice for rows the classifier is unsure of (keep, filter).
    low_confidence TEXT NOT NULL DEFAULT 'keep'
  );
  CREATE INDEX jobs_status ON jobs(status);
  CREATE INDEX jobs_owner ON jobs(owner);
  ${RDAP_CACHE_SCHEMA}
  -- A job's chunks, their progress and what each left (sqlite_chunks.ts),
  -- as in PostgreSQL mode; a chunk's rows are kept as files beside it
  -- (results/job_results.ts).
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
`;

/** The steps after BASE_VERSION, in order. */
export const MIGRATIONS: string[] = [
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

/** Applies the migrations the database has not had. */
export function migrate(db: DatabaseSync): void {
  const version = Number(
    (db.prepare("PRAGMA user_version").get() as Row).user_version,
  );
  if (version > 0 && version < BASE_VERSION) {
    throw new Error(
      `it was written by an early development version (schema ${version}) that this one does not read`,
    );
  }
  const step = (sql: string, to: number) => {
    db.exec("BEGIN");
    try {
      db.exec(sql);
      db.exec(`PRAGMA user_version = ${to}`);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  };
  if (version === 0) step(BASE_SCHEMA, BASE_VERSION);
  const last = BASE_VERSION + MIGRATIONS.length;
  for (let v = Math.max(version, BASE_VERSION); v < last; v++) {
    step(MIGRATIONS[v - BASE_VERSION], v + 1);
  }
}
