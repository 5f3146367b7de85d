// Rows of the results table: the insert statement and values, built from
// the field table by field name, and the read back into an Enrichment.
import {
  compileOverFields,
  ENRICHMENT_FIELD_TABLE,
  ENRICHMENT_FIELDS,
  type EnrichmentField,
} from "../../shared/enrichment_fields.ts";
import { type FailureKind, failureMessage } from "../../shared/failures.ts";
import { emptyEnrichment, type Enrichment } from "../enrichment/types.ts";
import type { HostnameLookups } from "../../shared/wire.ts";
import type { Row } from "./job_rows.ts";

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
  /** Host-name lookups by outcome (kept as stored when absent). */
  hostnameLookups?: HostnameLookups;
}

/** Counters as they stand now, host-name counts included (not shared). */
export function copyCounters(counters: Counters): Counters {
  const { hostnameLookups, ...counts } = counters;
  return hostnameLookups
    ? { ...counts, hostnameLookups: { ...hostnameLookups } }
    : counts;
}

export type SqlValue = string | number | null;

/** The results table's columns before the enrichment fields. */
const ROW_COLUMNS = [
  "job_id",
  "row_index",
  "original",
  "ip",
  "success",
  "error",
  "failure_kind",
  "failure_range",
  "isp_filtered",
];

// Rows per INSERT statement: 100 rows of 21 values stay far below SQLite's
// limit of 32,766 bound values.
export const INSERT_ROWS = 100;

/** A multi-row INSERT naming its columns: `fields` after ROW_COLUMNS. */
export function insertResultsSql(
  fields: readonly EnrichmentField[],
  rows: number,
): string {
  const row = `(${
    Array(ROW_COLUMNS.length + fields.length).fill("?").join(", ")
  })`;
  return `INSERT INTO results (${[...ROW_COLUMNS, ...fields].join(", ")})
    VALUES ${Array(rows).fill(row).join(", ")}`;
}

/** The SELECT of keptRowValues (Store): `columns` are checked names. */
export function keptRowsSql(columns: readonly EnrichmentField[]): string {
  for (const column of columns) {
    if (!ENRICHMENT_FIELDS.includes(column)) {
      throw new Error(`not an enrichment column: ${column}`);
    }
  }
  return `SELECT ${["original", ...columns, "success", "error"]}
    FROM results WHERE job_id = ? AND row_index >= ? AND row_index < ?
    AND isp_filtered = 0 ORDER BY row_index`;
}

export type ResultPusher = (
  values: SqlValue[],
  jobId: number,
  result: StoredResult,
) => void;

/**
 * A function that appends one result's values in the column order of
 * insertResultsSql with the same `fields`: each field's value is taken by
 * its name. Made once per field list (the store's is made at start).
 */
export function resultPusher(fields: readonly EnrichmentField[]): ResultPusher {
  const pushFields = compileOverFields<
    (values: SqlValue[], e: Enrichment) => void
  >(
    fields,
    ["values", "e"],
    (list) => `values.push(${list((name) => `e.${name}`)});`,
  );
  return (values, jobId, { rowIndex, original, enrichment: e }) => {
    const failure = e.failure;
    values.push(
      jobId,
      rowIndex,
      JSON.stringify(original),
      e.ip,
      e.success ? 1 : 0,
      failure ? failureMessage(failure, "job") : null,
      failure ? failure.kind : null,
      failure?.range ?? null,
      e.ispFiltered ? 1 : 0,
    );
    pushFields(values, e);
  };
}

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

/** A batch refused because another writer moved the checkpoint. */
export class CheckpointMoved extends Error {
  constructor(jobId: number) {
    super(`job ${jobId}: checkpoint moved by another writer`);
  }
}
