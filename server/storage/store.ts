// All SQLite access lives here, so a second database can be added behind
// the same methods. The HTTP side and each job worker open their own Store
// on the same file (WAL mode: one writer, many readers).
import { DatabaseSync, type StatementSync } from "node:sqlite";
import {
  ENRICHMENT_FIELDS,
  type Job,
  type JobStatus,
} from "../../shared/wire.ts";
import type { Enrichment, EnrichOptions } from "../enrichment/types.ts";
import { MIGRATIONS } from "./migrations.ts";

export interface UploadRecord {
  fileName: string;
  originalFileName: string;
  size: number;
  headers: string[];
  rowCount: number;
  /** Field separator detected while the file streamed in. */
  delimiter: string;
  createdAt: string;
}

export interface NewJob {
  fileName: string;
  originalFileName: string;
  ipColumnName: string;
  ipColumnIndex: number;
  headers: string[];
  delimiter: string;
  totalIPs: number;
  options: EnrichOptions;
}

/** A job with the server-side fields the wire format leaves out. */
export interface JobRecord extends Job {
  ipColumnIndex: number;
  headers: string[];
  delimiter: string;
  options: EnrichOptions;
}

export interface StoredResult {
  rowIndex: number;
  original: string[];
  enrichment: Enrichment;
}

export interface Counters {
  processed: number;
  successful: number;
  failed: number;
  filtered: number;
}

/** The results table's enrichment columns: the wire format's fields. */
export const ENRICHMENT_COLUMNS = ENRICHMENT_FIELDS;

type Row = Record<string, string | number | null>;

// Rows per INSERT statement: 100 rows of 19 values stay far below SQLite's
// limit of 32,766 bound values.
const INSERT_ROWS = 100;
const RESULT_ROW = `(${
  Array(7 + ENRICHMENT_COLUMNS.length).fill("?").join(", ")
})`;

function insertResults(rows: number): string {
  return `INSERT INTO results (job_id, row_index, original, ip, success, error,
    isp_filtered, ${ENRICHMENT_COLUMNS.join(", ")})
    VALUES ${Array(rows).fill(RESULT_ROW).join(", ")}`;
}

const now = () => new Date().toISOString();

export class DatabaseError extends Error {}

export class Store {
  readonly db: DatabaseSync;
  #statements = new Map<string, StatementSync>();

  /** `check`: run SQLite's quick_check first (the server does, workers not). */
  constructor(readonly path: string, options: { check?: boolean } = {}) {
    try {
      this.db = new DatabaseSync(path);
      this.db.exec("PRAGMA busy_timeout = 10000");
      this.db.exec("PRAGMA journal_mode = WAL");
      this.db.exec("PRAGMA synchronous = NORMAL");
      if (options.check) this.#check();
      this.#migrate();
    } catch (error) {
      throw new DatabaseError(
        `cannot open the database at ${path}: ${
          (error as Error).message
        }. Move the file aside to start with an empty database, or restore it from a backup.`,
      );
    }
  }

  close(): void {
    this.db.close();
  }

  #check(): void {
    const integrity = this.db.prepare("PRAGMA quick_check").get() as Row;
    if (integrity.quick_check !== "ok") {
      throw new Error(`integrity check failed: ${integrity.quick_check}`);
    }
  }

  #migrate(): void {
    const version = Number(
      (this.db.prepare("PRAGMA user_version").get() as Row).user_version,
    );
    for (let v = version; v < MIGRATIONS.length; v++) {
      this.db.exec("BEGIN");
      try {
        this.db.exec(MIGRATIONS[v]);
        this.db.exec(`PRAGMA user_version = ${v + 1}`);
        this.db.exec("COMMIT");
      } catch (error) {
        this.db.exec("ROLLBACK");
        throw error;
      }
    }
  }

  #sql(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  transaction<T>(fn: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const value = fn();
      this.db.exec("COMMIT");
      return value;
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }

  // --- uploads

  addUpload(upload: UploadRecord): void {
    this.#sql(
      `INSERT INTO uploads (file_name, original_file_name, size, headers,
        row_count, delimiter, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      upload.fileName,
      upload.originalFileName,
      upload.size,
      JSON.stringify(upload.headers),
      upload.rowCount,
      upload.delimiter,
      upload.createdAt,
    );
  }

  getUpload(fileName: string): UploadRecord | null {
    const row = this.#sql("SELECT * FROM uploads WHERE file_name = ?").get(
      fileName,
    ) as Row | undefined;
    return row ? toUpload(row) : null;
  }

  /** Uploads older than the cut-off that no job refers to. */
  unusedUploadsBefore(cutoff: string): UploadRecord[] {
    return (this.#sql(
      `SELECT * FROM uploads u WHERE created_at < ?
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.file_name = u.file_name)`,
    ).all(cutoff) as Row[]).map(toUpload);
  }

  deleteUpload(fileName: string): void {
    this.#sql("DELETE FROM uploads WHERE file_name = ?").run(fileName);
  }

  // --- jobs

  createJob(job: NewJob): JobRecord {
    const at = now();
    const { lastInsertRowid } = this.#sql(
      `INSERT INTO jobs (file_name, original_file_name, status, total_ips,
        ip_column_name, ip_column_index, headers, delimiter,
        include_geolocation, include_domain, include_company, include_network,
        created_at, updated_at)
        VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      job.fileName,
      job.originalFileName,
      job.totalIPs,
      job.ipColumnName,
      job.ipColumnIndex,
      JSON.stringify(job.headers),
      job.delimiter,
      Number(job.options.geolocation),
      Number(job.options.domain),
      Number(job.options.company),
      Number(job.options.network),
      at,
      at,
    );
    return this.getJob(Number(lastInsertRowid))!;
  }

  getJob(id: number): JobRecord | null {
    const row = this.#sql("SELECT * FROM jobs WHERE id = ?").get(id) as
      | Row
      | undefined;
    return row ? toJob(row) : null;
  }

  listJobs(): JobRecord[] {
    return (this.#sql("SELECT * FROM jobs ORDER BY id DESC").all() as Row[])
      .map(toJob);
  }

  jobsWithStatus(...statuses: JobStatus[]): JobRecord[] {
    const marks = statuses.map(() => "?").join(", ");
    return (this.db.prepare(
      `SELECT * FROM jobs WHERE status IN (${marks}) ORDER BY id`,
    ).all(...statuses) as Row[]).map(toJob);
  }

  /**
   * Moves a job to a new status only from one of the expected ones, so two
   * actors (a cancel and a finishing worker) cannot both win.
   */
  setStatus(
    id: number,
    to: JobStatus,
    from: JobStatus[],
    error: string | null = null,
  ): boolean {
    const ends = to === "completed" || to === "failed" || to === "cancelled";
    const marks = from.map(() => "?").join(", ");
    const { changes } = this.db.prepare(
      `UPDATE jobs SET status = ?, error = ?, updated_at = ?,
        completed_at = ${ends ? "?" : "NULL"}
        WHERE id = ? AND status IN (${marks})`,
    ).run(to, error, now(), ...(ends ? [now()] : []), id, ...from);
    return Number(changes) > 0;
  }

  setTotal(id: number, total: number): void {
    this.#sql("UPDATE jobs SET total_ips = ?, updated_at = ? WHERE id = ?")
      .run(total, now(), id);
  }

  /**
   * Commits a batch of results and the job's counters in one transaction:
   * after a crash, processed_ips is exactly the number of stored rows.
   */
  commitBatch(jobId: number, results: StoredResult[], counters: Counters) {
    const update = this.#sql(
      `UPDATE jobs SET processed_ips = ?, successful_ips = ?, failed_ips = ?,
        filtered_ips = ?, updated_at = ?
        WHERE id = ? AND processed_ips = ? AND status = 'processing'`,
    );
    this.transaction(() => {
      const before = counters.processed - results.length;
      const { changes } = update.run(
        counters.processed,
        counters.successful,
        counters.failed,
        counters.filtered,
        now(),
        jobId,
        before,
      );
      // Another writer moved the checkpoint: this batch is not ours to add.
      if (Number(changes) !== 1) {
        // A cancelled job keeps exactly the rows it had when it was
        // cancelled: later batches are refused, so its counts stay put.
        const status = this.getJob(jobId)?.status;
        if (status !== "processing") throw new JobStopped(jobId, status);
        throw new CheckpointMoved(jobId);
      }
      // One multi-row INSERT per batch: a statement run per row cost more in
      // calls into SQLite than storing the rows.
      for (let from = 0; from < results.length; from += INSERT_ROWS) {
        const rows = results.slice(from, from + INSERT_ROWS);
        const values: (string | number | null)[] = [];
        for (const { rowIndex, original, enrichment: e } of rows) {
          values.push(
            jobId,
            rowIndex,
            JSON.stringify(original),
            e.ip,
            e.success ? 1 : 0,
            e.error,
            e.ispFiltered ? 1 : 0,
            e.country,
            e.country_code,
            e.region,
            e.city,
            e.latitude,
            e.longitude,
            e.hostname,
            e.domain,
            e.company,
            e.network_type,
            e.isp,
            e.asn,
          );
        }
        this.#sql(insertResults(rows.length)).run(...values);
      }
    });
  }

  /** Deletes jobs in the given status with their results; returns them. */
  deleteJobs(status: JobStatus): JobRecord[] {
    return this.transaction(() => {
      const jobs = this.jobsWithStatus(status);
      for (const job of jobs) {
        this.#sql("DELETE FROM results WHERE job_id = ?").run(job.id);
        this.#sql("DELETE FROM jobs WHERE id = ?").run(job.id);
      }
      return jobs;
    });
  }

  /** Whether any job still refers to an uploaded file. */
  uploadInUse(fileName: string): boolean {
    return !!this.#sql("SELECT 1 FROM jobs WHERE file_name = ? LIMIT 1").get(
      fileName,
    );
  }

  // --- results

  /**
   * The download's fields of the kept rows with row_index in [from, to), in
   * order, as arrays: the original row's JSON, the given enrichment columns,
   * success (1 or 0) and error. Arrays, not objects: a million rows of
   * objects were much of a download's time.
   */
  keptRowValues(
    jobId: number,
    from: number,
    to: number,
    columns: readonly (typeof ENRICHMENT_COLUMNS[number])[],
  ): (string | number | null)[][] {
    for (const column of columns) {
      if (!ENRICHMENT_COLUMNS.includes(column)) {
        throw new Error(`not an enrichment column: ${column}`);
      }
    }
    const sql = `SELECT ${["original", ...columns, "success", "error"]}
      FROM results WHERE job_id = ? AND row_index >= ? AND row_index < ?
      AND isp_filtered = 0 ORDER BY row_index`;
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      statement.setReturnArrays(true);
      this.#statements.set(sql, statement);
    }
    return statement.all(jobId, from, to) as unknown as (
      | string
      | number
      | null
    )[][];
  }

  /** Rows with row_index in [from, to), in order. */
  resultsBetween(
    jobId: number,
    from: number,
    to: number,
    onlyKept = false,
  ): StoredResult[] {
    return (this.#sql(
      `SELECT * FROM results WHERE job_id = ? AND row_index >= ?
        AND row_index < ? ${onlyKept ? "AND isp_filtered = 0" : ""}
        ORDER BY row_index`,
    ).all(jobId, from, to) as Row[]).map(toResult);
  }
}

export class JobStopped extends Error {
  constructor(jobId: number, status: string | undefined) {
    super(`job ${jobId} is ${status ?? "gone"}: no more rows are committed`);
  }
}

export class CheckpointMoved extends Error {
  constructor(jobId: number) {
    super(`job ${jobId}: checkpoint moved by another writer`);
  }
}

function toUpload(row: Row): UploadRecord {
  return {
    fileName: String(row.file_name),
    originalFileName: String(row.original_file_name),
    size: Number(row.size),
    headers: JSON.parse(String(row.headers)),
    rowCount: Number(row.row_count),
    delimiter: String(row.delimiter),
    createdAt: String(row.created_at),
  };
}

function toJob(row: Row): JobRecord {
  const options: EnrichOptions = {
    geolocation: row.include_geolocation === 1,
    domain: row.include_domain === 1,
    company: row.include_company === 1,
    network: row.include_network === 1,
  };
  return {
    id: Number(row.id),
    fileName: String(row.file_name),
    originalFileName: String(row.original_file_name),
    status: row.status as JobStatus,
    totalIPs: Number(row.total_ips),
    processedIPs: Number(row.processed_ips),
    successfulIPs: Number(row.successful_ips),
    failedIPs: Number(row.failed_ips),
    filteredIPs: Number(row.filtered_ips),
    ipColumnName: String(row.ip_column_name),
    ipColumnIndex: Number(row.ip_column_index),
    headers: JSON.parse(String(row.headers)),
    delimiter: String(row.delimiter),
    createdAt: String(row.created_at),
    completedAt: row.completed_at === null ? null : String(row.completed_at),
    error: row.error === null ? null : String(row.error),
    partialSaveAvailable: Number(row.processed_ips) > 0,
    includeGeolocation: options.geolocation,
    includeDomain: options.domain,
    includeCompany: options.company,
    includeNetwork: options.network,
    options,
  };
}

function toResult(row: Row): StoredResult {
  const text = (key: string) => row[key] === null ? null : String(row[key]);
  const num = (key: string) => row[key] === null ? null : Number(row[key]);
  return {
    rowIndex: Number(row.row_index),
    original: JSON.parse(String(row.original)),
    enrichment: {
      ip: String(row.ip),
      success: row.success === 1,
      error: text("error"),
      ispFiltered: row.isp_filtered === 1,
      country: text("country"),
      country_code: text("country_code"),
      region: text("region"),
      city: text("city"),
      latitude: num("latitude"),
      longitude: num("longitude"),
      hostname: text("hostname"),
      domain: text("domain"),
      company: text("company"),
      network_type: text("network_type"),
      isp: text("isp"),
      asn: text("asn"),
    },
  };
}

/** The wire form of a job (drops server-only fields). */
export function toWireJob(job: JobRecord): Job {
  const {
    ipColumnIndex: _i,
    headers: _h,
    delimiter: _d,
    options: _o,
    ...wire
  } = job;
  return wire;
}
