// The JobStore on PostgreSQL (postgres.js): uploads and jobs; a job's
// chunks are pg_chunks.ts, its results part files (results/job_results.ts).
// PostgreSQL's text cannot hold U+0000, which SQLite keeps and uploads may
// carry (a header or an address cell of a binary file): names taken from the
// upload are stored as JSON, which escapes it; any other text has it
// replaced by U+FFFD.
import type postgres from "postgres";
import { pgClient, transaction } from "./pg_connect.ts";
import type { JobStatus, RegistrationLookups } from "../../../shared/wire.ts";
import {
  type JobRecord,
  type NewJob,
  newJobColumns,
  type Row,
  toJob as jobFromRow,
  toUpload as uploadFromRow,
  uploadColumns,
  type UploadRecord,
} from "../job_rows.ts";
import type { ChunkProgressStore } from "../chunk_progress.ts";
import type { JobStore } from "../store_interface.ts";
import { PgChunkProgress } from "./pg_chunks.ts";
import { migratePg } from "./pg_schema.ts";
import type { Dialect } from "../../csv/dialect.ts";

const ENCODED_JOB_COLUMNS = ["original_file_name", "ip_column_name"];
const encodeText = (text: string) => JSON.stringify(text);
const withoutNul = (text: string) => text.replaceAll("\0", "\uFFFD");

const now = () => new Date().toISOString();

function decoded(row: Row, columns: string[]): Row {
  const copy = { ...row };
  for (const column of columns) {
    copy[column] = JSON.parse(String(row[column]));
  }
  return copy;
}
const toJob = (row: Row) => jobFromRow(decoded(row, ENCODED_JOB_COLUMNS));
const toUpload = (row: Row) =>
  uploadFromRow(decoded(row, ["original_file_name"]));

/**
 * A transaction here is a few statements with nothing between them, so one
 * left open for seconds is a client that stopped answering (a process
 * stopped by SIGSTOP, a machine that hangs) with the rows it locked: the
 * server ends its session, which frees them for the job's other chunks and
 * for the worker the queue hands the chunk to once its heartbeat lapses. A
 * lock still not had after longer than that is held by a session that is
 * not idle: the statement fails as lock_not_available, and the chunk goes
 * back to the queue.
 */
const HELD_LOCKS_END = {
  idle_in_transaction_session_timeout: 10_000,
  lock_timeout: 30_000,
};

export class PgStore implements JobStore {
  /** A chunked job's progress (the queue runner's; not part of JobStore). */
  readonly chunkProgress: ChunkProgressStore;

  private constructor(readonly sql: postgres.Sql) {
    this.chunkProgress = new PgChunkProgress(sql);
  }

  /** Connects and brings the schema up to date. */
  static async open(databaseUrl: string, max = 10): Promise<PgStore> {
    const sql = pgClient(databaseUrl, {
      max,
      onnotice: () => {},
      connection: {
        application_name: "ip-enrich-store",
        ...HELD_LOCKS_END,
      },
    });
    await migratePg(sql);
    return new PgStore(sql);
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }

  // --- uploads

  async addUpload(upload: UploadRecord): Promise<void> {
    await this.sql`INSERT INTO uploads ${
      this.sql(uploadColumns(upload, encodeText))
    }`;
  }

  async getUpload(fileName: string): Promise<UploadRecord | null> {
    const [row] = await this.sql<Row[]>`
      SELECT * FROM uploads WHERE file_name = ${fileName}`;
    return row ? toUpload(row) : null;
  }

  async unusedUploadsBefore(cutoff: string): Promise<UploadRecord[]> {
    const rows = await this.sql<Row[]>`
      SELECT * FROM uploads u WHERE created_at < ${cutoff}
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.file_name = u.file_name)`;
    return rows.map(toUpload);
  }

  async deleteUpload(fileName: string): Promise<void> {
    await this.sql`DELETE FROM uploads WHERE file_name = ${fileName}`;
  }

  async uploadInUse(fileName: string): Promise<boolean> {
    const rows = await this.sql`
      SELECT 1 FROM jobs WHERE file_name = ${fileName} LIMIT 1`;
    return rows.length > 0;
  }

  // --- jobs

  async createJob(job: NewJob): Promise<JobRecord> {
    const columns = newJobColumns(job, now(), encodeText, withoutNul);
    const [row] = await this.sql<Row[]>`INSERT INTO jobs ${
      this.sql(columns)
    } RETURNING *`;
    return toJob(row);
  }

  async getJob(id: number): Promise<JobRecord | null> {
    const [row] = await this.sql<Row[]>`SELECT * FROM jobs WHERE id = ${id}`;
    return row ? toJob(row) : null;
  }

  async listJobs(owner?: string): Promise<JobRecord[]> {
    const rows = await this.sql<Row[]>`SELECT * FROM jobs ${
      owner === undefined ? this.sql`` : this.sql`WHERE owner = ${owner}`
    } ORDER BY id DESC`;
    return rows.map(toJob);
  }

  async jobsWithStatus(...statuses: JobStatus[]): Promise<JobRecord[]> {
    if (statuses.length === 0) return [];
    const rows = await this.sql<Row[]>`
      SELECT * FROM jobs WHERE status IN ${this.sql(statuses)} ORDER BY id`;
    return rows.map(toJob);
  }

  async setStatus(
    id: number,
    to: JobStatus,
    from: JobStatus[],
    error: string | null = null,
  ): Promise<boolean> {
    const ends = to === "completed" || to === "failed" || to === "cancelled";
    const at = now();
    const rows = await this.sql`
      UPDATE jobs SET status = ${to},
        error = ${
      error === null ? null : withoutNul(error)
    }, updated_at = ${at},
        completed_at = ${ends ? at : null}
        WHERE id = ${id} AND status IN ${this.sql(from)} RETURNING id`;
    return rows.length > 0;
  }

  async setDialect(id: number, dialect: Dialect): Promise<void> {
    await this.sql`UPDATE jobs SET dialect = ${JSON.stringify(dialect)}
      WHERE id = ${id}`;
  }

  async addRegistrationLookups(
    id: number,
    add: RegistrationLookups,
  ): Promise<void> {
    await this.sql`UPDATE jobs SET
      registrations_answered = registrations_answered + ${add.answered},
      registrations_cached = registrations_cached + ${add.cached},
      registrations_failed = registrations_failed + ${add.failed},
      updated_at = ${now()} WHERE id = ${id}`;
  }

  /** Deletes the jobs with their chunks, in one transaction. */
  async deleteJobs(status: JobStatus, owner?: string): Promise<JobRecord[]> {
    const rows = await transaction(this.sql, async (tx) => {
      const rows = await tx<Row[]>`
        DELETE FROM jobs WHERE status = ${status} ${
        owner === undefined ? tx`` : tx`AND owner = ${owner}`
      } RETURNING *`;
      if (rows.length > 0) {
        await tx`DELETE FROM job_chunks WHERE job_id IN ${
          tx(rows.map((row) => Number(row.id)))
        }`;
      }
      return rows;
    });
    return rows.map(toJob).sort((a, b) => a.id - b.id);
  }
}
