// A chunk's result rows as columns, the form a chunk's rows are kept in
// beside its download part (job_results.ts): one array per field, each text
// value stored once per chunk (places, companies and networks repeat over
// many rows), numbers in typed arrays. Structured-clone serialisable
// (node:v8), so a chunk is written and read in one call and a preview page
// decodes only the rows it shows.
import { deserialize, serialize } from "node:v8";
import {
  ENRICHMENT_FIELD_TABLE,
  type EnrichmentField,
} from "../../shared/enrichment_fields.ts";
import type { FailureKind } from "../../shared/failures.ts";
import { emptyEnrichment } from "../enrichment/types.ts";
import type { StoredResult } from "../storage/result_rows.ts";

const TEXT_FIELDS = ENRICHMENT_FIELD_TABLE.filter((f) => f.sql !== "REAL")
  .map((f) => f.name);
const NUMBER_FIELDS = ENRICHMENT_FIELD_TABLE.filter((f) => f.sql === "REAL")
  .map((f) => f.name);

const SUCCESS = 1;
const FILTERED = 2;

/** The serialised form: arrays only, indexes into `texts` (-1: null). */
export interface ResultColumns {
  count: number;
  rowIndex: Float64Array;
  /** Original cells, all rows', and where each row's start (count + 1). */
  cells: string[];
  cellStart: Int32Array;
  ip: Int32Array;
  flags: Uint8Array;
  failureKind: Int32Array;
  failureRange: Int32Array;
  text: Record<string, Int32Array>;
  number: Record<string, Float64Array>;
  texts: string[];
}

/** Collects a chunk's rows, in order, into columns. */
export class ColumnsBuilder {
  #rowIndex: number[] = [];
  #cells: string[] = [];
  #cellStart: number[] = [0];
  #ip: number[] = [];
  #flags: number[] = [];
  #failureKind: number[] = [];
  #failureRange: number[] = [];
  #text = new Map<string, number[]>(TEXT_FIELDS.map((f) => [f, []]));
  #number = new Map<string, number[]>(NUMBER_FIELDS.map((f) => [f, []]));
  #texts: string[] = [];
  #ids = new Map<string, number>();

  get count(): number {
    return this.#rowIndex.length;
  }

  #id(value: string | null | undefined): number {
    if (value === null || value === undefined) return -1;
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#texts.push(value) - 1;
      this.#ids.set(value, id);
    }
    return id;
  }

  add({ rowIndex, original, enrichment: e }: StoredResult): void {
    this.#rowIndex.push(rowIndex);
    for (const cell of original) this.#cells.push(cell);
    this.#cellStart.push(this.#cells.length);
    this.#ip.push(this.#id(e.ip));
    this.#flags.push(
      (e.success ? SUCCESS : 0) | (e.ispFiltered ? FILTERED : 0),
    );
    this.#failureKind.push(this.#id(e.failure?.kind));
    this.#failureRange.push(this.#id(e.failure?.range));
    const values = e as unknown as Record<string, string | number | null>;
    for (const [field, column] of this.#text) {
      column.push(this.#id(values[field] as string | null));
    }
    for (const [field, column] of this.#number) {
      const value = values[field];
      column.push(value === null || value === undefined ? NaN : Number(value));
    }
  }

  build(): ResultColumns {
    return {
      count: this.#rowIndex.length,
      rowIndex: Float64Array.from(this.#rowIndex),
      cells: this.#cells,
      cellStart: Int32Array.from(this.#cellStart),
      ip: Int32Array.from(this.#ip),
      flags: Uint8Array.from(this.#flags),
      failureKind: Int32Array.from(this.#failureKind),
      failureRange: Int32Array.from(this.#failureRange),
      text: Object.fromEntries(
        [...this.#text].map((
          [field, column],
        ) => [field, Int32Array.from(column)]),
      ),
      number: Object.fromEntries(
        [...this.#number].map((
          [field, column],
        ) => [field, Float64Array.from(column)]),
      ),
      texts: this.#texts,
    };
  }
}

export function encodeColumns(columns: ResultColumns): Uint8Array {
  return serialize(columns);
}

export function decodeColumns(bytes: Uint8Array): ResultColumns {
  return deserialize(bytes) as ResultColumns;
}

/** Whether row `i` is left out of the download (consumer or mobile). */
export function isFiltered(columns: ResultColumns, i: number): boolean {
  return (columns.flags[i] & FILTERED) !== 0;
}

/** A text field of row `i`, or null. */
export function textAt(
  columns: ResultColumns,
  field: EnrichmentField,
  i: number,
): string | null {
  const id = columns.text[field]?.[i] ?? -1;
  return id < 0 ? null : columns.texts[id];
}

/** Row `i` as the stored result it was built from. */
export function resultAt(columns: ResultColumns, i: number): StoredResult {
  const { texts } = columns;
  const enrichment = emptyEnrichment(texts[columns.ip[i]]);
  enrichment.success = (columns.flags[i] & SUCCESS) !== 0;
  enrichment.ispFiltered = (columns.flags[i] & FILTERED) !== 0;
  const kind = columns.failureKind[i];
  if (kind >= 0) {
    enrichment.failure = { kind: texts[kind] as FailureKind };
    const range = columns.failureRange[i];
    if (range >= 0) enrichment.failure.range = texts[range];
  }
  const values = enrichment as unknown as Record<
    string,
    string | number | null
  >;
  for (const field of TEXT_FIELDS) {
    const id = columns.text[field]?.[i] ?? -1;
    values[field] = id < 0 ? null : texts[id];
  }
  for (const field of NUMBER_FIELDS) {
    const value = columns.number[field]?.[i] ?? NaN;
    values[field] = Number.isNaN(value) ? null : value;
  }
  return {
    rowIndex: columns.rowIndex[i],
    original: columns.cells.slice(
      columns.cellStart[i],
      columns.cellStart[i + 1],
    ),
    enrichment,
  };
}
