// A chunk's result rows as columns, the form a chunk's rows are kept in
// beside its download part (job_results.ts). Rows of one place and
// organisation share every value but their own (address, host name, domain,
// ip_used): those values are kept once per group of rows, numbers in typed
// arrays. Structured-clone serialisable (node:v8),
// so a chunk is written and read in one call and a preview page builds only
// the rows it shows.
import { deserialize, serialize } from "node:v8";
import { ENRICHMENT_FIELD_TABLE } from "../../shared/enrichment_fields.ts";
import type { FailureKind } from "../../shared/failures.ts";
import { emptyEnrichment } from "../enrichment/types.ts";
import type { StoredResult } from "../storage/result_rows.ts";

/** Fields of a row's own; the others follow its place and organisation. */
const ROW_FIELDS = ["hostname", "domain"] as const;
const GROUP_TEXT = ENRICHMENT_FIELD_TABLE
  .filter((f) =>
    f.sql !== "REAL" && f.name !== "ip_used" &&
    !(ROW_FIELDS as readonly string[]).includes(f.name)
  )
  .map((f) => f.name);
const GROUP_NUMBER = ENRICHMENT_FIELD_TABLE.filter((f) => f.sql === "REAL")
  .map((f) => f.name);

const SUCCESS = 1;
const FILTERED = 2;

type Values = Record<string, string | number | null>;

/** The serialised form: arrays only; text ids index `texts` (-1: null). */
export interface ResultColumns {
  count: number;
  rowIndex: Float64Array;
  /** Original cells, all rows', and where each row's start (count + 1). */
  cells: string[];
  cellStart: Int32Array;
  ip: string[];
  ipUsed: (string | null)[];
  /** ROW_FIELDS, a text id per row each. */
  own: Int32Array[];
  /** Each row's group. */
  group: Int32Array;
  /** Per group: flags, failure kind and range, GROUP_TEXT, GROUP_NUMBER. */
  flags: Uint8Array;
  failureKind: Int32Array;
  failureRange: Int32Array;
  text: (string | null)[];
  number: Float64Array;
  texts: string[];
}

/** Collects a chunk's rows, in order, into columns. */
export class ColumnsBuilder {
  #rowIndex: number[] = [];
  #cells: string[] = [];
  #cellStart: number[] = [0];
  #ip: string[] = [];
  #ipUsed: (string | null)[] = [];
  #own: number[][] = ROW_FIELDS.map(() => []);
  #group: number[] = [];
  #flags: number[] = [];
  #failureKind: number[] = [];
  #failureRange: number[] = [];
  #text: (string | null)[] = [];
  #number: number[] = [];
  #texts: string[] = [];
  #ids = new Map<string, number>();
  /** Groups by row key (RowBatch.keys, jobs/row_results.ts). */
  #groups = new Map<number, number>();

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

  #newGroup({ enrichment: e }: StoredResult): number {
    const values = e as unknown as Values;
    this.#flags.push(
      (e.success ? SUCCESS : 0) | (e.ispFiltered ? FILTERED : 0),
    );
    this.#failureKind.push(this.#id(e.failure?.kind));
    this.#failureRange.push(this.#id(e.failure?.range));
    for (const field of GROUP_TEXT) {
      this.#text.push(values[field] as string | null);
    }
    for (const field of GROUP_NUMBER) {
      const value = values[field];
      this.#number.push(
        value === null || value === undefined ? NaN : Number(value),
      );
    }
    return this.#flags.length - 1;
  }

  /**
   * Adds a row. `key` (RowBatch.keys, jobs/row_results.ts, -1: none): rows of one
   * key share their place's and organisation's values, kept once.
   */
  add(result: StoredResult, key = -1): void {
    const { rowIndex, original, enrichment: e } = result;
    this.#rowIndex.push(rowIndex);
    for (const cell of original) this.#cells.push(cell);
    this.#cellStart.push(this.#cells.length);
    this.#ip.push(e.ip);
    this.#ipUsed.push(e.ip_used);
    for (let f = 0; f < ROW_FIELDS.length; f++) {
      this.#own[f].push(this.#id(e[ROW_FIELDS[f]]));
    }
    let group = key >= 0 ? this.#groups.get(key) : undefined;
    if (group === undefined) {
      group = this.#newGroup(result);
      if (key >= 0) this.#groups.set(key, group);
    }
    this.#group.push(group);
  }

  build(): ResultColumns {
    return {
      count: this.#rowIndex.length,
      rowIndex: Float64Array.from(this.#rowIndex),
      cells: this.#cells,
      cellStart: Int32Array.from(this.#cellStart),
      ip: this.#ip,
      ipUsed: this.#ipUsed,
      own: this.#own.map((column) => Int32Array.from(column)),
      group: Int32Array.from(this.#group),
      flags: Uint8Array.from(this.#flags),
      failureKind: Int32Array.from(this.#failureKind),
      failureRange: Int32Array.from(this.#failureRange),
      text: this.#text,
      number: Float64Array.from(this.#number),
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

const text = (columns: ResultColumns, id: number) =>
  id < 0 ? null : columns.texts[id];

/** Whether row `i` succeeded. */
export function isSuccess(columns: ResultColumns, i: number): boolean {
  return (columns.flags[columns.group[i]] & SUCCESS) !== 0;
}

/** Whether row `i` is left out of the download (consumer or mobile). */
export function isFiltered(columns: ResultColumns, i: number): boolean {
  return (columns.flags[columns.group[i]] & FILTERED) !== 0;
}

/** A text field of row `i` that follows its organisation, or null. */
export function groupTextAt(
  columns: ResultColumns,
  field: (typeof GROUP_TEXT)[number],
  i: number,
): string | null {
  const f = GROUP_TEXT.indexOf(field);
  return columns.text[columns.group[i] * GROUP_TEXT.length + f];
}

/** Row `i` as the stored result it was built from. */
export function resultAt(columns: ResultColumns, i: number): StoredResult {
  const g = columns.group[i];
  const enrichment = emptyEnrichment(columns.ip[i]);
  enrichment.success = (columns.flags[g] & SUCCESS) !== 0;
  enrichment.ispFiltered = (columns.flags[g] & FILTERED) !== 0;
  const kind = columns.failureKind[g];
  if (kind >= 0) {
    enrichment.failure = { kind: columns.texts[kind] as FailureKind };
    const range = columns.failureRange[g];
    if (range >= 0) enrichment.failure.range = columns.texts[range];
  }
  const values = enrichment as unknown as Values;
  GROUP_TEXT.forEach((field, f) => {
    values[field] = columns.text[g * GROUP_TEXT.length + f];
  });
  GROUP_NUMBER.forEach((field, f) => {
    const value = columns.number[g * GROUP_NUMBER.length + f];
    values[field] = Number.isNaN(value) ? null : value;
  });
  ROW_FIELDS.forEach((field, f) => {
    values[field] = text(columns, columns.own[f][i]);
  });
  enrichment.ip_used = columns.ipUsed[i];
  return {
    rowIndex: columns.rowIndex[i],
    original: columns.cells.slice(
      columns.cellStart[i],
      columns.cellStart[i + 1],
    ),
    enrichment,
  };
}
