// SQLite's uploads and jobs; the JobStore interface (store_interface.ts)
// puts PostgreSQL behind the same methods, and a job's chunks are
// sqlite_chunks.ts. The HTTP side and each job thread open their own Store
// on the same file (WAL mode: one writer, many readers).
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { JobStatus, RegistrationLookups } from "../../shared/wire.ts";
import {
  type JobRecord,
  type NewJob,
  newJobColumns,
  type Row,
  toJob,
  toUpload,
  uploadColumns,
  type UploadRecord,
} from "./job_rows.ts";
import { checkIntegrity, migrate } from "./migrations.ts";
import type { Dialect } from "../csv/dialect.ts";

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
      if (options.check) checkIntegrity(this.db);
      migrate(this.db);
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
      // SQLite rolls back by itself on some errors (a full disk): the
      // error to report is the first one, not a failed ROLLBACK.
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  // --- uploads

  #insert(table: string, row: Row) {
    const names = Object.keys(row);
    return this.#sql(
      `INSERT INTO ${table} (${names.join(", ")})
        VALUES (${names.map(() => "?").join(", ")})`,
    ).run(...Object.values(row));
  }

  addUpload(upload: UploadRecord): void {
    this.#insert("uploads", uploadColumns(upload));
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
    const { lastInsertRowid } = this.#insert("jobs", newJobColumns(job, now()));
    return this.getJob(Number(lastInsertRowid))!;
  }

  getJob(id: number): JobRecord | null {
    const row = this.#sql("SELECT * FROM jobs WHERE id = ?").get(id) as
      | Row
      | undefined;
    return row ? toJob(row) : null;
  }

  /** Jobs newest first: all, or only `owner`'s when given. */
  listJobs(owner?: string): JobRecord[] {
    return (this.#sql(
      "SELECT * FROM jobs WHERE ?1 IS NULL OR owner = ?1 ORDER BY id DESC",
    ).all(owner ?? null) as Row[]).map(toJob);
  }

  jobsWithStatus(...statuses: JobStatus[]): JobRecord[] {
    const marks = statuses.map(() => "?").join(", ");
    return (this.db.prepare(
      `SELECT * FROM jobs WHERE status IN (${marks}) ORDER BY id`,
    ).all(...statuses) as Row[]).map(toJob);
  }

  /** Records the databases a job runs on (EngineData.version). */
  setDataVersion(id: number, version: string): void {
    this.#sql(`UPDATE jobs SET data_version = ? WHERE id = ?`).run(version, id);
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

  /** Keeps the dialect found for a job stored before dialects were. */
  setDialect(id: number, dialect: Dialect): void {
    this.#sql("UPDATE jobs SET dialect = ? WHERE id = ?").run(
      JSON.stringify(dialect),
      id,
    );
  }

  /** Adds a run's RDAP outcomes to the job's (a resumed job adds on). */
  addRegistrationLookups(id: number, add: RegistrationLookups): void {
    this.#sql(
      `UPDATE jobs SET registrations_answered = registrations_answered + ?,
        registrations_cached = registrations_cached + ?,
        registrations_failed = registrations_failed + ?, updated_at = ?
        WHERE id = ?`,
    ).run(add.answered, add.cached, add.failed, now(), id);
  }

  /** Deletes jobs in `status` (only `owner`'s when given); returns them. */
  deleteJobs(status: JobStatus, owner?: string): JobRecord[] {
    return this.transaction(() => {
      const jobs = this.jobsWithStatus(status)
        .filter((job) => owner === undefined || job.owner === owner);
      for (const job of jobs) {
        this.#sql("DELETE FROM job_chunks WHERE job_id = ?").run(job.id);
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
}
