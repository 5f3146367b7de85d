// Rows of the uploads and jobs tables as records, and a job's wire form.
import type { Job, JobStatus } from "../../shared/wire.ts";
import { type Dialect, parseDialect } from "../csv/dialect.ts";
import type { RowChunk } from "../csv/row_chunks.ts";
import type { EnrichOptions } from "../enrichment/types.ts";

export type Row = Record<string, string | number | null>;

export interface UploadRecord {
  fileName: string;
  originalFileName: string;
  size: number;
  headers: string[];
  rowCount: number;
  /** How the file writes its table, found as it streamed in (null: an
   * upload stored before dialects were kept). */
  dialect: Dialect | null;
  createdAt: string;
  /** Session id of the uploader; null for uploads from before sessions. */
  owner: string | null;
  /** Where its reader cut it into a job's chunks (absent before that). */
  chunks?: RowChunk[];
}

export interface NewJob {
  fileName: string;
  originalFileName: string;
  ipColumnName: string;
  ipColumnIndex: number;
  headers: string[];
  /** The upload's dialect (null: found when the job is first queued). */
  dialect: Dialect | null;
  totalIPs: number;
  options: EnrichOptions;
  /** AS numbers and CIDRs to keep even when filtered (already checked). */
  alwaysKeep?: string | null;
  /** Session id of the job's maker (never sent on the wire). */
  owner?: string | null;
  /** The databases it runs on (EngineData.version). */
  dataVersion?: string | null;
}

/** A job with the server-side fields the wire format leaves out. */
export interface JobRecord extends Job {
  ipColumnIndex: number;
  headers: string[];
  /**
   * The upload's dialect; null for a job stored before dialects were kept,
   * until it is queued (jobs/run_chunk.ts planJobChunks).
   */
  dialect: Dialect | null;
  options: EnrichOptions;
  alwaysKeep: string | null;
  owner: string | null;
}

const same = (text: string) => text;

/** An upload as its uploads row; `name` encodes the file's name. */
export function uploadColumns(upload: UploadRecord, name = same): Row {
  return {
    file_name: upload.fileName,
    original_file_name: name(upload.originalFileName),
    size: upload.size,
    headers: JSON.stringify(upload.headers),
    row_count: upload.rowCount,
    delimiter: upload.dialect?.delimiter ?? ",",
    dialect: upload.dialect ? JSON.stringify(upload.dialect) : null,
    created_at: upload.createdAt,
    owner: upload.owner,
    row_chunks: upload.chunks ? JSON.stringify(upload.chunks) : null,
  };
}

/**
 * A new job as its jobs row (pending); `name` encodes the names taken from
 * the upload, `text` the keep list.
 */
export function newJobColumns(
  job: NewJob,
  at: string,
  name = same,
  text = same,
): Row {
  return {
    file_name: job.fileName,
    original_file_name: name(job.originalFileName),
    status: "pending",
    total_ips: job.totalIPs,
    ip_column_name: name(job.ipColumnName),
    ip_column_index: job.ipColumnIndex,
    headers: JSON.stringify(job.headers),
    delimiter: job.dialect?.delimiter ?? ",",
    dialect: job.dialect ? JSON.stringify(job.dialect) : null,
    include_geolocation: Number(job.options.geolocation),
    include_domain: Number(job.options.domain),
    include_company: Number(job.options.company),
    include_network: Number(job.options.network),
    resolve_hostnames: Number(job.options.resolveHostnames ?? false),
    include_registration: Number(job.options.registration ?? false),
    low_confidence: job.options.lowConfidence ?? "keep",
    always_keep: job.alwaysKeep == null ? null : text(job.alwaysKeep),
    created_at: at,
    updated_at: at,
    owner: job.owner ?? null,
    data_version: job.dataVersion ?? null,
  };
}

const ownerOf = (row: Row) => row.owner == null ? null : String(row.owner);

export function toUpload(row: Row): UploadRecord {
  return {
    fileName: String(row.file_name),
    originalFileName: String(row.original_file_name),
    size: Number(row.size),
    headers: JSON.parse(String(row.headers)),
    rowCount: Number(row.row_count),
    dialect: parseDialect(row.dialect),
    createdAt: String(row.created_at),
    owner: ownerOf(row),
    ...(row.row_chunks == null
      ? {}
      : { chunks: JSON.parse(String(row.row_chunks)) }),
  };
}

export function toJob(row: Row): JobRecord {
  const options: EnrichOptions = {
    geolocation: row.include_geolocation === 1,
    domain: row.include_domain === 1,
    company: row.include_company === 1,
    network: row.include_network === 1,
    resolveHostnames: row.resolve_hostnames === 1,
    registration: row.include_registration === 1,
    lowConfidence: row.low_confidence === "filter" ? "filter" : "keep",
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
    dialect: parseDialect(row.dialect),
    createdAt: String(row.created_at),
    completedAt: row.completed_at === null ? null : String(row.completed_at),
    error: row.error === null ? null : String(row.error),
    partialSaveAvailable: Number(row.processed_ips) > 0,
    includeGeolocation: options.geolocation,
    includeDomain: options.domain,
    includeCompany: options.company,
    includeNetwork: options.network,
    includeRegistration: options.registration === true,
    lowConfidence: options.lowConfidence!,
    hostnameLookups: {
      answered: Number(row.hostnames_answered ?? 0),
      noName: Number(row.hostnames_no_name ?? 0),
      timedOut: Number(row.hostnames_timed_out ?? 0),
      skipped: Number(row.hostnames_skipped ?? 0),
    },
    registrationLookups: {
      answered: Number(row.registrations_answered ?? 0),
      cached: Number(row.registrations_cached ?? 0),
      failed: Number(row.registrations_failed ?? 0),
    },
    dataVersion: row.data_version == null ? null : String(row.data_version),
    options,
    alwaysKeep: row.always_keep == null ? null : String(row.always_keep),
    owner: ownerOf(row),
  };
}

/** The wire form of a job (drops server-only fields). */
export function toWireJob(job: JobRecord): Job {
  const {
    ipColumnIndex: _i,
    headers: _h,
    dialect: _d,
    options: _o,
    alwaysKeep: _k,
    owner: _owner,
    ...wire
  } = job;
  return wire;
}
