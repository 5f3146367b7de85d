// A chunk's result rows as columns, the form a chunk's rows are kept in
// beside its download part (job_results.ts). Each row's line is kept as the
// upload stored it, its cells read only when a page shows the row. Rows of
// one place and organisation share every value but their own (address, host
// name, domain, ip_used): those values are kept once per group of rows,
// numbers in typed arrays. Structured-clone serialisable (node:v8), so a
// chunk is written and read in one call and a preview page builds only the
// rows it shows. Values of text (addresses, each of a group's fields) are
// kept as one string a field and where each value ends, so reading a chunk
// copies a few strings, not one per value. One string a field, not one for
// all: a string with one character past Latin-1 is stored at two bytes a
// character.
import { deserialize, serialize } from "node:v8";
import { ENRICHMENT_FIELD_TABLE } from "../../shared/enrichment_fields.ts";
import type { FailureKind } from "../../shared/failures.ts";
import { ByteSink } from "../csv/byte_sink.ts";
import type { Dialect } from "../csv/dialect.ts";
import { LineScanner } from "../csv/line_scanner.ts";
import { emptyEnrichment, type Enrichment } from "../enrichment/types.ts";
import { resized } from "../typed_arrays.ts";
import type { StoredResult } from "../storage/result_rows.ts";
import type { SourceLine } from "../csv/chunk_lines.ts";

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

const TYPE = GROUP_TEXT.indexOf("network_type");
const COMPANY = GROUP_TEXT.indexOf("company");
const ASN = GROUP_TEXT.indexOf("asn");
const COUNTRY = GROUP_TEXT.indexOf("country");
const COUNTRY_CODE = GROUP_TEXT.indexOf("country_code");
const CITY = GROUP_TEXT.indexOf("city");

/**
 * What a group's rows are, but their failure: what a chunk counts them by
 * and what a preview's filter tests of them (an enrichment has them too).
 */
export type GroupFacts = Pick<
  Enrichment,
  | "success"
  | "ispFiltered"
  | "network_type"
  | "company"
  | "asn"
  | "country"
  | "country_code"
  | "city"
>;

/**
 * A row's own values: the rest of its values are its group's (a row of a
 * key added before brings only these).
 */
export type OwnValues = Pick<
  Enrichment,
  "ip" | "ip_used" | (typeof ROW_FIELDS)[number]
>;

/** A group's flags (ColumnsBuilder.flagsOf): it succeeded, it is left out. */
export const SUCCESS = 1;
export const FILTERED = 2;

/** A group's facts from its flags and its GROUP_TEXT values (`at`). */
function factsOf(
  flags: number,
  at: (f: number) => string | null,
  facts = {} as GroupFacts,
): GroupFacts {
  facts.success = (flags & SUCCESS) !== 0;
  facts.ispFiltered = (flags & FILTERED) !== 0;
  facts.network_type = at(TYPE);
  facts.company = at(COMPANY);
  facts.asn = at(ASN);
  facts.country = at(COUNTRY);
  facts.country_code = at(COUNTRY_CODE);
  facts.city = at(CITY);
  return facts;
}

type Values = Record<string, string | number | null>;

/**
 * Values of text one after another, and where each ends: `~end` for a
 * null (it ends where the one before does).
 */
export interface JoinedText {
  text: string;
  ends: Int32Array;
}

/** The serialised form: arrays only; text ids index `texts` (-1: null). */
export interface ResultColumns {
  count: number;
  rowIndex: Float64Array;
  /**
   * Each row's line as stored, one after another, and where each ends;
   * read in `dialect`.
   */
  lines: Uint8Array;
  lineEnds: Int32Array;
  dialect: Pick<Dialect, "delimiter" | "quote" | "newline">;
  ip: JoinedText;
  ipUsed: JoinedText;
  /** ROW_FIELDS, a text id per row each. */
  own: Int32Array[];
  /** Each row's group. */
  group: Int32Array;
  /** Per group: flags, failure kind and range, GROUP_TEXT, GROUP_NUMBER. */
  flags: Uint8Array;
  failureKind: Int32Array;
  failureRange: Int32Array;
  /** A group's value of each GROUP_TEXT field, one JoinedText a field. */
  text: JoinedText[];
  number: Float64Array;
  texts: string[];
}

/** Numbers appended to a typed array that grows as needed. */
class NumberColumn<T extends Uint8Array | Int32Array | Float64Array> {
  #values: T;
  length = 0;

  constructor(readonly make: (length: number) => T) {
    this.#values = make(1024);
  }

  push(value: number): void {
    if (this.length === this.#values.length) {
      this.#values = resized(this.#values, this.length * 2);
    }
    this.#values[this.length++] = value;
  }

  at(i: number): number {
    return this.#values[i];
  }

  /** The values so far (a view: read it before the next push). */
  get values(): T {
    return this.#values.subarray(0, this.length) as T;
  }

  /** The values, in an array their size, which takes the memory over. */
  build(): T {
    return resized(this.#values, this.length);
  }
}

const int32s = () => new NumberColumn((n) => new Int32Array(n));

/** Collects values into a JoinedText, each readable until it is built. */
class TextJoiner {
  values: (string | null)[] = [];

  push(value: string | null | undefined): void {
    this.values.push(value ?? null);
  }

  build(): JoinedText {
    const { values } = this;
    const ends = new Int32Array(values.length);
    let end = 0;
    for (let k = 0; k < values.length; k++) {
      const value = values[k];
      if (value === null) ends[k] = ~end;
      else ends[k] = end += value.length;
    }
    this.values = [];
    // join writes a null as nothing.
    return { text: values.join(""), ends };
  }
}

/** Value `k` of a JoinedText. */
export function joinedAt({ text, ends }: JoinedText, k: number): string | null {
  const end = ends[k];
  if (end < 0) return null;
  const before = k === 0 ? 0 : ends[k - 1];
  return text.slice(before < 0 ? ~before : before, end);
}

/** Collects a chunk's rows, in order, into columns. */
export class ColumnsBuilder {
  #rowIndex = new NumberColumn((n) => new Float64Array(n));
  #lines = new ByteSink();
  #lineEnds = int32s();
  #ip = new TextJoiner();
  #ipUsed = new TextJoiner();
  #own = ROW_FIELDS.map(int32s);
  #group = int32s();
  #flags = new NumberColumn((n) => new Uint8Array(n));
  #failureKind = int32s();
  #failureRange = int32s();
  #text = GROUP_TEXT.map(() => new TextJoiner());
  #number = new NumberColumn((n) => new Float64Array(n));
  #texts: string[] = [];
  #ids = new Map<string, number>();

  /** `dialect`: the job's, its lines'. */
  constructor(readonly dialect: Dialect) {}

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

  /** A new group of rows, of these values but the rows' own; its number. */
  newGroup(e: Enrichment): number {
    const values = e as unknown as Values;
    this.#flags.push(
      (e.success ? SUCCESS : 0) | (e.ispFiltered ? FILTERED : 0),
    );
    this.#failureKind.push(this.#id(e.failure?.kind));
    this.#failureRange.push(this.#id(e.failure?.range));
    for (let f = 0; f < GROUP_TEXT.length; f++) {
      this.#text[f].push(values[GROUP_TEXT[f]] as string | null);
    }
    for (const field of GROUP_NUMBER) {
      const value = values[field];
      this.#number.push(
        value === null || value === undefined ? NaN : Number(value),
      );
    }
    return this.#flags.length - 1;
  }

  /** A group's flags (SUCCESS, FILTERED). */
  flagsOf(group: number): number {
    return this.#flags.at(group);
  }

  /** Adds a row of a group (newGroup) with its own values. */
  add(rowIndex: number, line: SourceLine, own: OwnValues, group: number) {
    this.#rowIndex.push(rowIndex);
    this.#lines.range(line.buf, line.start, line.contentEnd);
    this.#lineEnds.push(this.#lines.length);
    this.#ip.push(own.ip);
    this.#ipUsed.push(own.ip_used);
    for (let f = 0; f < ROW_FIELDS.length; f++) {
      this.#own[f].push(this.#id(own[ROW_FIELDS[f]]));
    }
    this.#group.push(group);
  }

  /** How many rows each group has so far, by group. */
  groupRows(): Int32Array {
    const rows = new Int32Array(this.#flags.length);
    for (const group of this.#group.values) rows[group]++;
    return rows;
  }

  /**
   * Group `g`'s facts that a chunk's counts read, in one object reused by
   * each call (read it before the next).
   */
  groupFacts(g: number): GroupFacts {
    return factsOf(
      this.#flags.at(g),
      (f) => this.#text[f].values[g],
      this.#facts,
    );
  }

  #facts = {} as GroupFacts;

  /** The columns (once: the builder's memory goes to them). */
  build(): ResultColumns {
    return {
      count: this.#rowIndex.length,
      rowIndex: this.#rowIndex.build(),
      lines: this.#lines.takeAll(),
      lineEnds: this.#lineEnds.build(),
      dialect: {
        delimiter: this.dialect.delimiter,
        quote: this.dialect.quote,
        newline: this.dialect.newline,
      },
      ip: this.#ip.build(),
      ipUsed: this.#ipUsed.build(),
      own: this.#own.map((column) => column.build()),
      group: this.#group.build(),
      flags: this.#flags.build(),
      failureKind: this.#failureKind.build(),
      failureRange: this.#failureRange.build(),
      text: this.#text.map((joiner) => joiner.build()),
      number: this.#number.build(),
      texts: this.#texts,
    };
  }
}

export function encodeColumns(columns: ResultColumns): Uint8Array {
  return serialize(columns);
}

/** A chunk's columns. */
export function decodeColumns(bytes: Uint8Array): ResultColumns {
  return deserialize(bytes) as ResultColumns;
}

/** A scanner per chunk's columns read, for the lines of the rows shown. */
const scanners = new WeakMap<ResultColumns, LineScanner>();

/** Row `i`'s original cells, from its line. */
function originalCells(columns: ResultColumns, i: number): string[] {
  let scanner = scanners.get(columns);
  if (!scanner) {
    scanners.set(columns, scanner = new LineScanner(columns.dialect));
  }
  const line = columns.lines.subarray(
    i === 0 ? 0 : columns.lineEnds[i - 1],
    columns.lineEnds[i],
  );
  let cells: string[] = [""];
  scanner.scan(line, 0, true, () => cells = scanner.cells());
  return cells;
}

const text = (columns: ResultColumns, id: number) =>
  id < 0 ? null : columns.texts[id];

/** Whether row `i` is left out of the download (consumer or mobile). */
export function isFiltered(columns: ResultColumns, i: number): boolean {
  return (columns.flags[columns.group[i]] & FILTERED) !== 0;
}

/**
 * A test of rows by their group's facts, asked once per group.
 */
export function rowTest(
  columns: ResultColumns,
  test: (facts: GroupFacts) => boolean,
): (i: number) => boolean {
  // 0: not asked yet, 1: passes, 2: does not.
  const verdicts = new Uint8Array(columns.flags.length);
  return (i) => {
    const g = columns.group[i];
    if (verdicts[g] === 0) {
      const facts = factsOf(
        columns.flags[g],
        (f) => joinedAt(columns.text[f], g),
      );
      verdicts[g] = test(facts) ? 1 : 2;
    }
    return verdicts[g] === 1;
  };
}

/** Row `i` as the stored result it was built from. */
export function resultAt(columns: ResultColumns, i: number): StoredResult {
  const g = columns.group[i];
  const enrichment = emptyEnrichment(joinedAt(columns.ip, i)!);
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
    values[field] = joinedAt(columns.text[f], g);
  });
  GROUP_NUMBER.forEach((field, f) => {
    const value = columns.number[g * GROUP_NUMBER.length + f];
    values[field] = Number.isNaN(value) ? null : value;
  });
  ROW_FIELDS.forEach((field, f) => {
    values[field] = text(columns, columns.own[f][i]);
  });
  enrichment.ip_used = joinedAt(columns.ipUsed, i);
  return {
    rowIndex: columns.rowIndex[i],
    original: originalCells(columns, i),
    enrichment,
  };
}
