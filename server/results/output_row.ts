// A job's output row, described once from the field table (outputCells:
// each new cell's name, whether its value is the row's own, and its value),
// and what encodes it: the CSV header here and a chunk's CSV lines
// (chunk_output.ts, after each original line as stored), the .xlsx row
// (outputRow). The preview's and live feed's JSON keep the API's own shapes
// (routes/result_views.ts).
import { Buffer } from "node:buffer";
import {
  ALWAYS,
  FIELD_GROUPS,
  type FieldGroup,
  fieldsOfGroup,
} from "../../shared/enrichment_fields.ts";
import {
  type Dialect,
  encodeField,
  headerBytes,
  legacyDialect,
} from "../csv/dialect.ts";
import { type EnrichOptions, errorText } from "../enrichment/types.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { StoredResult } from "../storage/result_rows.ts";

type Enrichment = StoredResult["enrichment"];

/**
 * What a cell's value follows: the row's own (its address's host name, the
 * address used), its place, its organisation (given a place that could be
 * read), or the whole row (compose.ts makes them so).
 */
export type CellSource = "own" | "place" | "network" | "row";

const SOURCE_OF_GROUP: Record<FieldGroup | typeof ALWAYS, CellSource> = {
  geolocation: "place",
  domain: "own",
  company: "network",
  network: "network",
  registration: "network",
  [ALWAYS]: "own",
};

/**
 * One new cell of the download, the one description its encoders (CSV lines,
 * chunk_output.ts; the .xlsx, download_xlsx.ts) read: its name, what its
 * value follows, and the value as the row holds it (null or undefined: an
 * empty cell), written as cellValue says.
 */
export interface OutputCell {
  name: string;
  source: CellSource;
  raw(enrichment: Enrichment): unknown;
}

/**
 * A job's new cells: the fields of the option groups chosen (in group
 * order, each group's in field-table order), then success and error.
 */
export function outputCells(
  options: Pick<EnrichOptions, FieldGroup>,
): OutputCell[] {
  const groups: (FieldGroup | typeof ALWAYS)[] = [
    ...FIELD_GROUPS.filter((group) => options[group]),
    ALWAYS,
  ];
  return [
    ...groups.flatMap((group) =>
      fieldsOfGroup(group).map((name): OutputCell => ({
        name,
        source: SOURCE_OF_GROUP[group],
        raw: (e: Enrichment) => e[name],
      }))
    ),
    {
      name: "enrichment_success",
      source: "row",
      raw: (e: Enrichment) => e.success ? "true" : "false",
    },
    {
      name: "enrichment_error",
      source: "row",
      raw: (e: Enrichment) => errorText(e, "job"),
    },
  ];
}

export function outputHeader(job: JobRecord): string[] {
  return [
    ...job.headers,
    ...outputCells(job.options).map((cell) => cell.name),
  ];
}

/** The job's dialect (a job stored before dialects were kept: its parts'). */
export function dialectOf(job: JobRecord): Dialect {
  return job.dialect ?? legacyDialect(job.headers);
}

const UTF8_BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

/**
 * The download's first line: the byte order mark when the upload had one,
 * the header line as stored, names for the cells past it (column_4, ...),
 * then the new columns' names, in the upload's dialect.
 */
export function csvHeader(job: JobRecord): Uint8Array {
  const dialect = dialectOf(job);
  const names = outputHeader(job).slice(dialect.headerCells);
  const rest =
    names.map((name) => dialect.delimiter + encodeField(name, dialect))
      .join("") + dialect.newline;
  return new Uint8Array(Buffer.concat([
    dialect.bom ? UTF8_BOM : new Uint8Array(0),
    headerBytes(dialect),
    Buffer.from(rest),
  ]));
}

/**
 * Whether a spreadsheet would read a cell as a formula: it starts with
 * = + - @, a tab or a carriage return (a test of one code, run per cell).
 */
export function formulaShaped(value: string): boolean {
  const c = value.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

/** Prefixes a quote to a cell a spreadsheet would read as a formula. */
export function neutraliseFormula(value: string): string {
  return formulaShaped(value) ? `'${value}` : value;
}

/** A cell's value as written: a formula's shape neutralised. */
export function cellValue(
  cell: OutputCell,
  enrichment: Enrichment,
): string | number {
  const value = cell.raw(enrichment);
  return value === null || value === undefined
    ? ""
    : typeof value === "number"
    ? value
    : neutraliseFormula(String(value));
}

/** One output row as cells (the .xlsx): the original cells, then the new. */
export function outputRow(
  job: JobRecord,
  cells: readonly OutputCell[],
  { original, enrichment }: StoredResult,
): (string | number)[] {
  return [
    ...job.headers.map((_, i) => original[i] ?? ""),
    ...cells.map((cell) => cellValue(cell, enrichment)),
  ];
}
