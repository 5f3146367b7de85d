// A job's result rows as the pipeline hands them on (StoredResult), a
// chunk's counters, and the errors of a refused commit.
import { ENRICHMENT_FIELD_TABLE } from "../../shared/enrichment_fields.ts";
import type { FailureKind } from "../../shared/failures.ts";
import { emptyEnrichment, type Enrichment } from "../enrichment/types.ts";
import type { HostnameLookups } from "../../shared/wire.ts";
import type { Row } from "./job_rows.ts";
import type { SourceLine } from "../csv/chunk_lines.ts";

export interface StoredResult {
  rowIndex: number;
  original: string[];
  enrichment: Enrichment;
}

/**
 * A finished row as a chunk's output takes it: its line as stored in the
 * upload, or (rows of earlier versions, stored as cells) its cells.
 */
export interface OutputRow {
  rowIndex: number;
  line?: SourceLine;
  original?: string[];
  enrichment: Enrichment;
}

export interface Counters {
  processed: number;
  successful: number;
  failed: number;
  filtered: number;
  /** Host-name lookups by outcome (kept as stored when absent). */
  hostnameLookups?: HostnameLookups;
}

/** Host-name lookups of none. */
export function emptyLookups(): HostnameLookups {
  return { answered: 0, noName: 0, timedOut: 0, skipped: 0 };
}

/** The counters of no row, host-name lookups included. */
export function zeroCounters(): Counters {
  return {
    processed: 0,
    successful: 0,
    failed: 0,
    filtered: 0,
    hostnameLookups: emptyLookups(),
  };
}

/** Counters as they stand now, host-name counts included (not shared). */
export function copyCounters(counters: Counters): Counters {
  const { hostnameLookups, ...counts } = counters;
  return hostnameLookups
    ? { ...counts, hostnameLookups: { ...hostnameLookups } }
    : counts;
}

export type SqlValue = string | number | null;

/** A row of the `results` table of earlier versions (results/legacy_results.ts). */
export function toResult(row: Row): StoredResult {
  const enrichment = emptyEnrichment(String(row.ip));
  enrichment.success = row.success === 1;
  enrichment.ispFiltered = row.isp_filtered === 1;
  if (row.failure_kind !== null) {
    enrichment.failure = { kind: row.failure_kind as FailureKind };
    if (row.failure_range !== null) {
      enrichment.failure.range = String(row.failure_range);
    }
  }
  const values = enrichment as unknown as Record<string, SqlValue>;
  for (const { name, sql } of ENRICHMENT_FIELD_TABLE) {
    const value = row[name];
    values[name] = value === null
      ? null
      : sql === "REAL"
      ? Number(value)
      : String(value);
  }
  return {
    rowIndex: Number(row.row_index),
    original: JSON.parse(String(row.original)),
    enrichment,
  };
}

/** A batch refused because its job is no longer processing. */
export class JobStopped extends Error {
  constructor(jobId: number, status: string | undefined) {
    super(`job ${jobId} is ${status ?? "gone"}: no more rows are committed`);
  }
}

/** A batch refused because another run took the chunk. */
export class ChunkTaken extends Error {
  constructor(jobId: number) {
    super(`job ${jobId}: chunk taken by another run`);
  }
}
