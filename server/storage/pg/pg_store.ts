// The JobStore on PostgreSQL (postgres.js). A checkpoint's results go in with
// COPY into the job's own partition, in the same transaction as the job's
// counters; rows already there from the checkpoint's position on are deleted
// first, so a redelivered checkpoint replaces rather than duplicates.
// Summaries and filtered previews are counted from the partition when asked
// (pg_summary.ts); COPY is pg_copy.ts, a chunked job's progress
// pg_chunks.ts. (A little over 300 lines: the JobStore's statements in one
// module.)
import type postgres from "postgres";
import { pgClient, transaction } from "./pg_connect.ts";
import type { EnrichmentField } from "../../../shared/enrichment_fields.ts";
import type { JobSummary } from "../../../shared/summary.ts";
import type { JobStatus, RegistrationLookups } from "../../../shared/wire.ts";
import type { PreviewFilter } from "../preview_filters.ts";
import {
  type JobRecord,
  type NewJob,
  type Row,
  toJob as jobFromRow,
  toUpload as uploadFromRow,
  type UploadRecord,
} from "../job_rows.ts";
import {
  CheckpointMoved,
  type Counters,
  JobStopped,
  keptRowsSql,
  type SqlValue,
  type StoredResult,
  toResult as resultFromRow,
} from "../result_rows.ts";
import type { ChunkProgressStore } from "../chunk_progress.ts";
import type { JobStore, PreviewRows } from "../store_interface.ts";
import { PgChunkProgress } from "./pg_chunks.ts";
import {
  copyResults,
  ENCODED_JOB_COLUMNS,
  encodeText,
  withoutNul,
} from "./pg_copy.ts";
import { migratePg, partitionName } from "./pg_schema.ts";
import { pgJobSummary, pgPreviewRows } from "./pg_summary.ts";

const now = () => new Date().toISOString();
/** `?` placeholders (SQLite's) as $1, $2, ... */
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

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
const toResult = (row: Row) => resultFromRow(decoded(row, ["ip"]));

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
      connection: { application_name: "ip-enrich-store" },
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
      this.sql({
        file_name: upload.fileName,
        original_file_name: encodeText(upload.originalFileName),
        size: upload.size,
        headers: JSON.stringify(upload.headers),
        row_count: upload.rowCount,
        delimiter: upload.delimiter,
        created_at: upload.createdAt,
        owner: upload.owner,
        row_chunks: upload.chunks ? JSON.stringify(upload.chunks) : null,
      })
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

  /** Inserts the job and creates its results partition, in one transaction. */
  async createJob(job: NewJob): Promise<JobRecord> {
    const at = now();
    const row = await transaction(this.sql, async (tx) => {
      const [row] = await tx<Row[]>`INSERT INTO jobs ${
        tx({
          file_name: job.fileName,
          original_file_name: encodeText(job.originalFileName),
          status: "pending",
          total_ips: job.totalIPs,
          ip_column_name: encodeText(job.ipColumnName),
          ip_column_index: job.ipColumnIndex,
          headers: JSON.stringify(job.headers),
          delimiter: job.delimiter,
          include_geolocation: Number(job.options.geolocation),
          include_domain: Number(job.options.domain),
          include_company: Number(job.options.company),
          include_network: Number(job.options.network),
          resolve_hostnames: Number(job.options.resolveHostnames ?? false),
          include_registration: Number(job.options.registration ?? false),
          low_confidence: job.options.lowConfidence ?? "keep",
          always_keep: job.alwaysKeep == null
            ? null
            : withoutNul(job.alwaysKeep),
          created_at: at,
          updated_at: at,
          owner: job.owner ?? null,
        })
      } RETURNING *`;
      const id = Number(row.id);
      await tx.unsafe(
        `CREATE TABLE ${partitionName(id)} PARTITION OF results
          FOR VALUES IN (${id})`,
      );
      return row;
    });
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

  async setTotal(id: number, total: number): Promise<void> {
    await this.sql`UPDATE jobs SET total_ips = ${total}, updated_at = ${now()}
      WHERE id = ${id}`;
  }

  async commitBatch(
    jobId: number,
    results: StoredResult[],
    counters: Counters,
  ): Promise<void> {
    const before = counters.processed - results.length;
    await transaction(this.sql, async (tx) => {
      const moved = await tx`
        UPDATE jobs SET processed_ips = ${counters.processed},
          successful_ips = ${counters.successful},
          failed_ips = ${counters.failed}, filtered_ips = ${counters.filtered},
          updated_at = ${now()}
        WHERE id = ${jobId} AND processed_ips = ${before}
          AND status = 'processing' RETURNING id`;
      if (moved.length !== 1) {
        const [job] = await tx`SELECT status FROM jobs WHERE id = ${jobId}`;
        if (job?.status !== "processing") {
          throw new JobStopped(jobId, job?.status as string | undefined);
        }
        throw new CheckpointMoved(jobId);
      }
      const lookups = counters.hostnameLookups;
      if (lookups) {
        await tx`UPDATE jobs SET hostnames_answered = ${lookups.answered},
          hostnames_no_name = ${lookups.noName},
          hostnames_timed_out = ${lookups.timedOut},
          hostnames_skipped = ${lookups.skipped} WHERE id = ${jobId}`;
      }
      if (results.length === 0) return;
      await tx.unsafe(
        `DELETE FROM ${partitionName(jobId)} WHERE row_index >= $1`,
        [before],
      );
      await copyResults(tx, jobId, results);
    });
  }

  /** Deletes the jobs and drops their partitions, in one transaction. */
  async deleteJobs(status: JobStatus, owner?: string): Promise<JobRecord[]> {
    const rows = await transaction(this.sql, async (tx) => {
      const rows = await tx<Row[]>`
        DELETE FROM jobs WHERE status = ${status} ${
        owner === undefined ? tx`` : tx`AND owner = ${owner}`
      } RETURNING *`;
      for (const row of rows) {
        await tx.unsafe(
          `DROP TABLE IF EXISTS ${partitionName(Number(row.id))}`,
        );
      }
      if (rows.length > 0) {
        await tx`DELETE FROM job_chunks WHERE job_id IN ${
          tx(rows.map((row) => Number(row.id)))
        }`;
      }
      return rows;
    });
    return rows.map(toJob).sort((a, b) => a.id - b.id);
  }

  // --- results

  async keptRowValues(
    jobId: number,
    from: number,
    to: number,
    columns: readonly EnrichmentField[],
  ): Promise<SqlValue[][]> {
    const rows = await this.sql.unsafe(numbered(keptRowsSql(columns)), [
      jobId,
      from,
      to,
    ], { prepare: true }).values();
    // A plain array (postgres.js answers with its own Array subclass).
    return Array.from(rows) as unknown as SqlValue[][];
  }

  async resultsBetween(
    jobId: number,
    from: number,
    to: number,
    onlyKept = false,
  ): Promise<StoredResult[]> {
    const rows = await this.sql<Row[]>`
      SELECT * FROM results WHERE job_id = ${jobId} AND row_index >= ${from}
        AND row_index < ${to} ${
      onlyKept ? this.sql`AND isp_filtered = 0` : this.sql``
    } ORDER BY row_index`;
    return rows.map(toResult);
  }

  // --- summary and filtered preview, counted from the job's partition

  async jobSummary(job: JobRecord): Promise<JobSummary> {
    return await pgJobSummary(this.sql, job.id);
  }

  async previewRows(
    jobId: number,
    filter: PreviewFilter,
    page: number,
    pageSize: number,
  ): Promise<PreviewRows> {
    return await pgPreviewRows(
      this.sql,
      jobId,
      filter,
      page,
      pageSize,
      toResult,
    );
  }
}
