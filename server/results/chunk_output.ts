// What a chunk of a job leaves behind, built as its rows are finished: its
// download part (each kept row's line as stored in the upload, padded to the
// header's width, then its new cells in the upload's dialect, so a download
// is its header and its parts one after another), its rows as columns (preview,
// live rows, Excel) and its counts (the summary and the preview's totals),
// the same in both modes (job_results.ts stores them).
import { failureMessage } from "../../shared/failures.ts";
import { ByteSink } from "../csv/byte_sink.ts";
import { type Dialect, encodeField, plainCodes } from "../csv/dialect.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { OutputRow } from "../storage/result_rows.ts";
import { emptyEnrichment, type Enrichment } from "../enrichment/types.ts";
import type { SourceLine } from "../csv/chunk_lines.ts";
import { keyNetwork, keyPlace } from "../jobs/row_results.ts";
import {
  type CellSource,
  cellValue,
  dialectOf,
  formulaShaped,
  type OutputCell,
  outputCells,
} from "./output_row.ts";
import {
  ColumnsBuilder,
  FILTERED,
  type GroupFacts,
  type OwnValues,
  type ResultColumns,
  SUCCESS,
} from "./result_columns.ts";
import { type SearchCounts, SearchCountsBuilder } from "./search_counts.ts";
import { type ChunkTop, splitTop } from "./top_counts.ts";
import { addressOf, encodeAddresses } from "./distinct_addresses.ts";
import { release } from "../typed_arrays.ts";

/** A count of one key of a summary dimension: key, code, rows. */
export type KeyCount = [string, string, number];

/** The top lists a chunk counts for its job's summary. */
export const TOP_DIMS = ["company", "asn", "country", "city"] as const;
export type TopDim = (typeof TOP_DIMS)[number];

/**
 * What a chunk's rows are, kept with it in the database (small): `kinds`
 * keyed by JSON [success, filtered, network_type] with the failure's words
 * as code (as summaryFromCounts reads them).
 */
export interface ChunkMeta {
  rows: number;
  keptRows: number;
  kinds: KeyCount[];
  /** Where each section of its `.idx` ends (job_results.ts SECTIONS). */
  index?: number[];
  /** The run whose blobs hold the parts (none: stored before runs named them). */
  run?: string;
}

/**
 * A chunk's counts by key, kept beside its parts: each top list's keys
 * (companies of kept rows), and `search`, rows by company, ASN, network
 * type and whether left out, for the preview's text search.
 */
export interface ChunkCounts {
  top: Record<TopDim, ChunkTop>;
  search: SearchCounts;
}

/** A `kinds` key's [success, filtered, network_type] (ChunkMeta). */
export const parseKindKey = (key: string) =>
  JSON.parse(key) as [number, number, string | null];

type NetCount = [string | null, string | null, string | null, boolean, number];

/**
 * The places (or organisations) of a chunk's groups by number, in the order
 * first seen, each with its first group and the rows of its groups.
 */
class Follows {
  #at = new Map<number, number>();
  #first: number[] = [];
  #rows: number[] = [];

  add(id: number, group: number, rows: number): void {
    const at = this.#at.get(id);
    if (at !== undefined) this.#rows[at] += rows;
    else {
      this.#at.set(id, this.#first.push(group) - 1);
      this.#rows.push(rows);
    }
  }

  each(count: (group: number, rows: number) => void): void {
    for (let at = 0; at < this.#first.length; at++) {
      count(this.#first[at], this.#rows[at]);
    }
  }
}

export interface ChunkParts {
  /** The kept rows' lines, without the header. */
  kept: Uint8Array[];
  /** The chunk's distinct addresses (distinct_addresses.ts). */
  addresses: Uint8Array;
  keptBytes: number;
  columns: ResultColumns;
  meta: ChunkMeta;
  counts: ChunkCounts;
}

/** Frees a chunk's parts' memory once they are stored (typed_arrays.ts). */
export function releaseParts({ kept, addresses, columns }: ChunkParts): void {
  release(
    ...kept,
    addresses,
    ...Object.values(columns).filter((value) => ArrayBuffer.isView(value)),
  );
}

const encoder = new TextEncoder();

/** New cells one after another that follow one source (OutputCell). */
interface CellRun {
  source: CellSource;
  cells: OutputCell[];
}

/** The runs of cells of one source. */
function cellRuns(cells: OutputCell[]): CellRun[] {
  const runs: CellRun[] = [];
  for (const cell of cells) {
    const last = runs.at(-1);
    if (last?.source === cell.source) last.cells.push(cell);
    else {
      runs.push({ source: cell.source, cells: [cell] });
    }
  }
  return runs;
}

/** The group `of` id was first seen with, or -1: `group` is the first. */
function firstOf(of: Map<number, number>, id: number, group: number): number {
  const first = of.get(id);
  if (first !== undefined) return first;
  of.set(id, group);
  return -1;
}

/** A row's kind's code: its failure in words, "" for none. */
const kindCode = (e: Enrichment) =>
  e.failure ? failureMessage(e.failure, "job") : "";

/**
 * Counts by key and code, listed by code first seen, then key first seen
 * (the kinds' order: the summary lists ties in it). Kept as columns in the
 * order first counted, found by key (a key's other codes, rare, by key then
 * code): no object per count until they are listed.
 */
class KeyCounts {
  #keys: string[] = [];
  #codes: string[] = [];
  #rows: number[] = [];
  /** Each key's first code's count, by key; its other codes' by code. */
  #first = new Map<string, number>();
  #others = new Map<string, Map<string, number>>();

  add(key: string, code: string, n: number): void {
    let at = this.#first.get(key);
    if (at === undefined) this.#first.set(key, at = this.#new(key, code));
    else if (this.#codes[at] !== code) {
      let byCode = this.#others.get(key);
      if (!byCode) this.#others.set(key, byCode = new Map());
      at = byCode.get(code);
      if (at === undefined) byCode.set(code, at = this.#new(key, code));
    }
    this.#rows[at] += n;
  }

  #new(key: string, code: string): number {
    this.#codes.push(code);
    this.#rows.push(0);
    return this.#keys.push(key) - 1;
  }

  all(): KeyCount[] {
    const byCode = new Map<string, KeyCount[]>();
    for (let at = 0; at < this.#keys.length; at++) {
      const code = this.#codes[at];
      let counts = byCode.get(code);
      if (!counts) byCode.set(code, counts = []);
      counts.push([this.#keys[at], code, this.#rows[at]]);
    }
    const all: KeyCount[] = [];
    for (const counts of byCode.values()) {
      for (const count of counts) all.push(count);
    }
    return all;
  }
}

/** Bytes of kept lines gathered into one piece of the download part. */
const KEPT_PIECE = 1 << 20;

export class ChunkOutput {
  #runs: CellRun[];
  #headerCount: number;
  #dialect: Dialect;
  #delimiter: Uint8Array;
  #newline: Uint8Array;
  /** ASCII codes a cell holds as they are (plainCodes). */
  #plain: Uint8Array;
  #sink = new ByteSink();
  #kept: Uint8Array[] = [];
  #keptBytes = 0;
  #keptRows = 0;
  #rows: ColumnsBuilder;
  /** Counts by dimension. */
  #counts = Object.fromEntries(
    [...TOP_DIMS, "kind"].map((dim) => [dim, new KeyCounts()]),
  ) as Record<TopDim | "kind", KeyCounts>;
  /** Rows by company, ASN, network type and whether left out, in the order
   * first counted, found by company, ASN, then the few of those two. */
  #nets: NetCount[] = [];
  #netsFound = new Map<string | null, Map<string | null, NetCount[]>>();
  /** Each row's address (addressOf), repeats and all. */
  #addresses: string[] = [];
  /**
   * Each group's new cells but the rows' own, run after run (where each
   * ends: #groupEnds, runs' ends a group), for the later rows of its key.
   */
  #groupTails = new ByteSink();
  #groupEnds: number[] = [];
  /**
   * By place and by organisation number, the first group of it whose
   * cells are in #groupTails: other groups of it copy them.
   */
  #placeGroup = new Map<number, number>();
  #networkGroup = new Map<number, number>();
  /** A known key's row's own values (addKnown), refilled. */
  #own = emptyEnrichment("");
  /**
   * Each key's group in the columns: rows of one key count alike, by their
   * group's facts and rows, at the chunk's end.
   */
  #groupOf = new Map<number, number>();
  /** The kind's code of a key's group with a failure, by group. */
  #codes = new Map<number, string>();
  /** Keys' groups whose place could not be read (shown with no values). */
  #unread = new Set<number>();
  /** The JSON kind keys, by network type, success and filtered. */
  #kindKeys = new Map<string | null, string[]>();

  constructor(job: JobRecord) {
    this.#runs = cellRuns(outputCells(job.options));
    this.#headerCount = job.headers.length;
    this.#dialect = dialectOf(job);
    this.#delimiter = encoder.encode(this.#dialect.delimiter);
    this.#newline = encoder.encode(this.#dialect.newline);
    this.#plain = plainCodes(this.#dialect);
    this.#rows = new ColumnsBuilder(this.#dialect);
  }

  /**
   * Adds a finished row of a new key (or of none, -1), in input order (read
   * now, not kept: see RowSink). `key`: rows of one key share their place's
   * and organisation's values, so they are counted once, n times, and their
   * lines share those cells (addKnown).
   */
  addRow(result: OutputRow, key: number): void {
    const { rowIndex, line, enrichment: e } = result;
    if (this.addKnown(rowIndex, line, e, key) >= 0) return;
    this.#address(e);
    const group = this.#rows.newGroup(e);
    this.#rows.add(rowIndex, line, e, group);
    if (key < 0) this.#count(e, kindCode(e), 1);
    else {
      this.#groupOf.set(key, group);
      if (e.failure) this.#codes.set(group, kindCode(e));
      if (e.failure?.kind === "corrupt_record") this.#unread.add(group);
    }
    const from = this.#groupTails.length;
    if (!e.ispFiltered) {
      this.#lineStart(line);
      this.#tail(e, key, group);
      this.#lineEnd(line);
    }
    // A group's later rows copy its cells but their own (#knownTail).
    if (key < 0 || e.ispFiltered) {
      for (let r = 0; r < this.#runs.length; r++) this.#groupEnds.push(from);
    }
  }

  /**
   * Adds a row of a key added before, by its own values alone, in input
   * order; its group's flags (result_columns.ts SUCCESS, FILTERED), or -1
   * when the key is new (nothing is added: addRow it).
   */
  addKnown(
    rowIndex: number,
    line: SourceLine,
    values: OwnValues,
    key: number,
  ): number {
    const group = key < 0 ? undefined : this.#groupOf.get(key);
    if (group === undefined) return -1;
    const flags = this.#rows.flagsOf(group);
    const own = this.#own;
    own.ip = values.ip;
    own.ip_used = values.ip_used;
    // A group that failed takes no host name (compose.ts addHostName).
    const named = (flags & SUCCESS) !== 0;
    own.hostname = named ? values.hostname : null;
    own.domain = named ? values.domain : null;
    this.#address(own);
    this.#rows.add(rowIndex, line, own, group);
    if ((flags & FILTERED) === 0) {
      this.#lineStart(line);
      this.#knownTail(own, group);
      this.#lineEnd(line);
    }
    return flags;
  }

  #address(e: Enrichment): void {
    const address = addressOf(e);
    if (address !== null) this.#addresses.push(address);
  }

  /** A kept row's line as stored, padded to the header's width. */
  #lineStart(line: SourceLine): void {
    const sink = this.#sink;
    sink.range(line.buf, line.start, line.contentEnd);
    for (let i = line.fields; i < this.#headerCount; i++) {
      sink.bytes(this.#delimiter);
    }
  }

  /** A kept row's line end as stored, and the piece taken when full. */
  #lineEnd(line: SourceLine): void {
    const sink = this.#sink;
    if (line.end > line.contentEnd) {
      sink.range(line.buf, line.contentEnd, line.end);
    } else sink.bytes(this.#newline);
    this.#keptRows++;
    if (sink.length >= KEPT_PIECE) this.#takeKept();
  }

  /** The kept lines so far as a piece (`last`: in the sink's memory). */
  #takeKept(last = false): void {
    if (this.#sink.length === 0) return;
    const bytes = last ? this.#sink.takeAll() : this.#sink.take();
    this.#kept.push(bytes);
    this.#keptBytes += bytes.length;
  }

  /**
   * The new cells of a kept row of a new key: a run of its place's or
   * organisation's copied from the first group of that place or
   * organisation that wrote it (an organisation's only with a place that
   * could be read: else compose.ts leaves it out). Each run but the row's
   * own is kept for the key's later rows and other groups (#groupTails).
   */
  #tail(e: Enrichment, key: number, group: number): void {
    const sink = this.#sink;
    const tails = this.#groupTails;
    const ends = this.#groupEnds;
    const runs = this.#runs;
    const located = key >= 0 && e.failure?.kind !== "corrupt_record";
    const place = located
      ? firstOf(this.#placeGroup, keyPlace(key), group)
      : -1;
    const network = located
      ? firstOf(this.#networkGroup, keyNetwork(key), group)
      : -1;
    for (let r = 0; r < runs.length; r++) {
      const run = runs[r];
      const from = sink.length;
      const like = run.source === "place"
        ? place
        : run.source === "network"
        ? network
        : -1;
      if (like >= 0) {
        const at = like * runs.length + r;
        sink.rangeOf(tails, at === 0 ? 0 : ends[at - 1], ends[at]);
      } else this.#cells(run, e);
      if (key < 0) continue;
      if (run.source !== "own") tails.rangeOf(sink, from, sink.length);
      ends.push(tails.length);
    }
  }

  /** A kept row's new cells: its group's, but for its own. */
  #knownTail(own: Enrichment, group: number): void {
    const ends = this.#groupEnds;
    let at = group * this.#runs.length;
    let from = at === 0 ? 0 : ends[at - 1];
    for (const run of this.#runs) {
      const to = ends[at++];
      if (run.source === "own") this.#cells(run, own);
      else this.#sink.rangeOf(this.#groupTails, from, to);
      from = to;
    }
  }

  /** A run's cells, each with the delimiter before it. */
  #cells(run: CellRun, e: Enrichment): void {
    for (const cell of run.cells) {
      this.#sink.bytes(this.#delimiter);
      this.#cell(cell, e);
    }
  }

  /**
   * A cell's text (cellValue) in the file's dialect: most values are empty,
   * numbers or plain ASCII that neither quoting nor neutraliseFormula
   * changes, written as they are.
   */
  #cell(cell: OutputCell, e: Enrichment): void {
    const value = cell.raw(e);
    if (value === null || value === undefined) return;
    const sink = this.#sink;
    if (
      typeof value === "string"
        ? !formulaShaped(value) && sink.plain(value, this.#plain)
        : typeof value === "number" && sink.plain(String(value), this.#plain)
    ) return;
    sink.text(encodeField(String(cellValue(cell, e)), this.#dialect));
  }

  #kindKey(success: boolean, filtered: boolean, type: string | null): string {
    let keys = this.#kindKeys.get(type);
    if (!keys) this.#kindKeys.set(type, keys = []);
    const at = (success ? 2 : 0) + (filtered ? 1 : 0);
    return keys[at] ??= JSON.stringify([+success, +filtered, type]);
  }

  /** `n` rows of these facts and kind's code. */
  #count(e: GroupFacts, code: string, n: number): void {
    this.#countKind(e, code, n);
    this.#countPlace(e, n);
    this.#countNetwork(e, n);
  }

  /**
   * The rows of the keys' groups: the values of a place and of an
   * organisation follow its number (of a place that could be read), so
   * each place and organisation is counted once, by its first group's
   * facts, with the rows of all its groups.
   */
  #countGroups(): void {
    const rows = this.#rows.groupRows();
    const places = new Follows();
    const networks = new Follows();
    for (const [key, g] of this.#groupOf) {
      const e = this.#rows.groupFacts(g);
      this.#countKind(e, this.#codes.get(g) ?? "", rows[g]);
      if (this.#unread.has(g)) {
        this.#countPlace(e, rows[g]);
        this.#countNetwork(e, rows[g]);
        continue;
      }
      places.add(keyPlace(key), g, rows[g]);
      networks.add(keyNetwork(key), g, rows[g]);
    }
    places.each((g, n) => this.#countPlace(this.#rows.groupFacts(g), n));
    networks.each((g, n) => this.#countNetwork(this.#rows.groupFacts(g), n));
  }

  #countKind(e: GroupFacts, code: string, n: number): void {
    this.#counts.kind.add(
      this.#kindKey(e.success, e.ispFiltered, e.network_type),
      code,
      n,
    );
  }

  #countPlace(e: GroupFacts, n: number): void {
    const code = e.country_code ?? "";
    if (e.country !== null) this.#counts.country.add(e.country, code, n);
    if (e.city !== null) this.#counts.city.add(e.city, code, n);
  }

  #countNetwork(e: GroupFacts, n: number): void {
    const counts = this.#counts;
    if (e.company !== null && !e.ispFiltered) {
      counts.company.add(e.company, "", n);
    }
    if (e.asn !== null) counts.asn.add(e.asn, "", n);
    if (e.company !== null || e.asn !== null) this.#countNet(e, n);
  }

  #countNet(e: GroupFacts, n: number): void {
    let byAsn = this.#netsFound.get(e.company);
    if (!byAsn) this.#netsFound.set(e.company, byAsn = new Map());
    let nets = byAsn.get(e.asn);
    if (!nets) byAsn.set(e.asn, nets = []);
    for (const net of nets) {
      if (net[2] === e.network_type && net[3] === e.ispFiltered) {
        net[4] += n;
        return;
      }
    }
    const net: NetCount = [e.company, e.asn, e.network_type, e.ispFiltered, n];
    nets.push(net);
    this.#nets.push(net);
  }

  /** The rows added so far by kind (ChunkMeta.kinds), for its progress. */
  kinds(): KeyCount[] {
    const counts = new Map<string, KeyCount>();
    const add = (key: string, code: string, n: number) => {
      const id = `${key}\u0000${code}`;
      const count = counts.get(id);
      if (count) count[2] += n;
      else counts.set(id, [key, code, n]);
    };
    for (const [key, code, n] of this.#counts.kind.all()) add(key, code, n);
    const rows = this.#rows.groupRows();
    for (const g of this.#groupOf.values()) {
      const e = this.#rows.groupFacts(g);
      add(
        this.#kindKey(e.success, e.ispFiltered, e.network_type),
        this.#codes.get(g) ?? "",
        rows[g],
      );
    }
    return [...counts.values()];
  }

  /** The chunk's parts, once its last row is added. */
  finish(): ChunkParts {
    this.#takeKept(true);
    this.#countGroups();
    this.#groupOf.clear();
    this.#codes.clear();
    this.#unread.clear();
    this.#placeGroup.clear();
    this.#networkGroup.clear();
    this.#groupTails.release();
    this.#groupEnds = [];
    const search = new SearchCountsBuilder();
    for (const net of this.#nets) search.add(...net);
    return {
      kept: this.#kept,
      addresses: encodeAddresses(this.#addresses),
      keptBytes: this.#keptBytes,
      columns: this.#rows.build(),
      meta: {
        rows: this.#rows.count,
        keptRows: this.#keptRows,
        kinds: this.#counts.kind.all(),
      },
      counts: {
        top: Object.fromEntries(
          TOP_DIMS.map((
            dim,
          ) => [dim, splitTop(this.#counts[dim].all())]),
        ) as ChunkCounts["top"],
        search: search.build(),
      },
    };
  }
}
