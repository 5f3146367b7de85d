// A job's result rows as the pipeline hands them on (StoredResult), a
// chunk's counters, and the errors of a refused commit.
import type { Enrichment } from "../enrichment/types.ts";
import type { HostnameLookups } from "../../shared/wire.ts";
import type { SourceLine } from "../csv/chunk_lines.ts";

export interface StoredResult {
  rowIndex: number;
  original: string[];
  enrichment: Enrichment;
}

/** A finished row as a chunk's output takes it: its line as stored. */
export interface OutputRow {
  rowIndex: number;
  line: SourceLine;
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
