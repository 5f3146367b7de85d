// What a chunk of a job leaves behind, built as its rows are finished: its
// download part (the kept rows as CSV lines, the download's format, so a
// download is its parts one after another), its rows as columns (preview,
// live rows, Excel) and its counts (the summary and the preview's totals),
// the same in both modes (job_results.ts stores them).
import { type EnrichmentField } from "../../shared/enrichment_fields.ts";
import { failureMessage } from "../../shared/failures.ts";
import { csvField } from "../csv/csv_rows.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { StoredResult } from "../storage/result_rows.ts";
import { outputCell, outputColumns, statusCells } from "../jobs/download.ts";
import { ColumnsBuilder, type ResultColumns } from "./result_columns.ts";
import { type SearchCounts, SearchCountsBuilder } from "./search_counts.ts";
import { type ChunkTop, splitTop } from "./top_counts.ts";
import { addressOf, encodeAddresses } from "./distinct_addresses.ts";

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

type NetCount = [string | null, string | null, string | null, boolean, number];

export interface ChunkParts {
  /** The kept rows as CSV lines, without the header. */
  kept: Uint8Array[];
  /** The chunk's distinct addresses (distinct_addresses.ts). */
  addresses: Uint8Array;
  keptBytes: number;
  columns: ResultColumns;
  meta: ChunkMeta;
  counts: ChunkCounts;
}

const encoder = new TextEncoder();

/** Output columns whose values are a row's own, not its key's. */
const OWN_FIELDS: ReadonlySet<EnrichmentField> = new Set([
  "hostname",
  "domain",
  "ip_used",
]);

/**
 * A kept row's output line after its original cells, as outputRow and
 * formatCsvRows (csv_rows.ts) write it: `texts` with, between each two, the
 * cell of a field of the row's own (`own`). Rows of one key have the same
 * texts, so a line costs its own cells only.
 */
interface LineTail {
  texts: string[];
  own: EnrichmentField[];
}

function lineTail(
  columns: readonly EnrichmentField[],
  { enrichment: e }: StoredResult,
): LineTail {
  const texts: string[] = [];
  const own: EnrichmentField[] = [];
  let text = "";
  for (const column of columns) {
    text += ",";
    if (OWN_FIELDS.has(column)) {
      texts.push(text);
      own.push(column);
      text = "";
    } else text += csvField(outputCell(e[column]));
  }
  texts.push(`${text},${statusCells(e).map(csvField).join(",")}\r\n`);
  return { texts, own };
}

export class ChunkOutput {
  #columns: EnrichmentField[];
  #headerCount: number;
  #kept: Uint8Array[] = [];
  #keptBytes = 0;
  #keptRows = 0;
  #rows = new ColumnsBuilder();
  /** Counts by dimension, code and key (a key and a code not joined into
   * one string: the strings repeat, their hashes are kept, a join's not). */
  #counts = new Map<TopDim | "kind", Map<string, Map<string, KeyCount>>>(
    [...TOP_DIMS, "kind" as const].map((dim) => [dim, new Map()]),
  );
  #nets = new Map<string, NetCount>();
  #addresses = new Set<string>();
  /** Rows counted by key (rows of one key count alike): one of them, n. */
  #byKey = new Map<
    number,
    { row: StoredResult; n: number; tail: LineTail | null }
  >();
  /** The JSON kind keys, by network type, success and filtered. */
  #kindKeys = new Map<string | null, string[]>();

  constructor(job: JobRecord) {
    this.#columns = outputColumns(job);
    this.#headerCount = job.headers.length;
  }

  get rows(): number {
    return this.#rows.count;
  }

  /**
   * Adds finished rows, in input order. `keys` (RowBatch.keys,
   * jobs/row_results.ts): rows of one key share their place's and
   * organisation's values, so they are counted once, n times, and their
   * lines share those cells (lineTail).
   */
  add(results: StoredResult[], keys?: number[]): void {
    let text = "";
    for (let i = 0; i < results.length; i++) {
      const result = results[i];
      const key = keys?.[i] ?? -1;
      this.#rows.add(result, key);
      const address = addressOf(result.enrichment);
      if (address !== null) this.#addresses.add(address);
      let same = null;
      if (key < 0) this.#count(result, 1);
      else {
        same = this.#byKey.get(key);
        if (same) same.n++;
        else this.#byKey.set(key, same = { row: result, n: 1, tail: null });
      }
      if (result.enrichment.ispFiltered) continue;
      const tail = same
        ? same.tail ??= lineTail(this.#columns, result)
        : lineTail(this.#columns, result);
      text += this.#line(result, tail);
      this.#keptRows++;
    }
    if (text) {
      const bytes = encoder.encode(text);
      this.#kept.push(bytes);
      this.#keptBytes += bytes.length;
    }
  }

  /** A kept row's output line (outputRow, formatCsvRows). */
  #line({ original, enrichment }: StoredResult, tail: LineTail): string {
    let line = "";
    for (let i = 0; i < this.#headerCount; i++) {
      if (i > 0) line += ",";
      line += csvField(original[i] ?? "");
    }
    const { texts, own } = tail;
    line += texts[0];
    for (let k = 0; k < own.length; k++) {
      line += csvField(outputCell(enrichment[own[k]]));
      line += texts[k + 1];
    }
    return line;
  }

  #bump(dim: TopDim | "kind", key: string, code: string, n: number): void {
    const byCode = this.#counts.get(dim)!;
    let byKey = byCode.get(code);
    if (!byKey) byCode.set(code, byKey = new Map());
    const count = byKey.get(key);
    if (count) count[2] += n;
    else byKey.set(key, [key, code, n]);
  }

  #all(dim: TopDim | "kind"): KeyCount[] {
    return [...this.#counts.get(dim)!.values()].flatMap((byKey) => [
      ...byKey.values(),
    ]);
  }

  #kindKey(success: boolean, filtered: boolean, type: string | null): string {
    let keys = this.#kindKeys.get(type);
    if (!keys) this.#kindKeys.set(type, keys = []);
    const at = (success ? 2 : 0) + (filtered ? 1 : 0);
    return keys[at] ??= JSON.stringify([+success, +filtered, type]);
  }

  /** A row's kind key and code (ChunkMeta.kinds). */
  #kindOf({ enrichment: e }: StoredResult): [string, string] {
    return [
      this.#kindKey(e.success, e.ispFiltered, e.network_type),
      e.failure ? failureMessage(e.failure, "job") : "",
    ];
  }

  #count(row: StoredResult, n: number): void {
    const e = row.enrichment;
    const filtered = e.ispFiltered ? 1 : 0;
    this.#bump("kind", ...this.#kindOf(row), n);
    if (e.company !== null && !e.ispFiltered) {
      this.#bump("company", e.company, "", n);
    }
    if (e.asn !== null) this.#bump("asn", e.asn, "", n);
    if (e.country !== null) {
      this.#bump("country", e.country, e.country_code ?? "", n);
    }
    if (e.city !== null) {
      this.#bump("city", e.city, e.country_code ?? "", n);
    }
    if (e.company !== null || e.asn !== null) {
      const id =
        `${e.company}\u0000${e.asn}\u0000${e.network_type}\u0000${filtered}`;
      const net = this.#nets.get(id);
      if (net) net[4] += n;
      else {
        this.#nets.set(id, [
          e.company,
          e.asn,
          e.network_type,
          e.ispFiltered,
          n,
        ]);
      }
    }
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
    for (const [key, code, n] of this.#all("kind")) add(key, code, n);
    for (const { row, n } of this.#byKey.values()) {
      add(...this.#kindOf(row), n);
    }
    return [...counts.values()];
  }

  /** The chunk's parts, once its last row is added. */
  finish(): ChunkParts {
    for (const { row, n } of this.#byKey.values()) this.#count(row, n);
    this.#byKey.clear();
    const search = new SearchCountsBuilder();
    for (const net of this.#nets.values()) search.add(...net);
    return {
      kept: this.#kept,
      addresses: encodeAddresses(this.#addresses),
      keptBytes: this.#keptBytes,
      columns: this.#rows.build(),
      meta: {
        rows: this.#rows.count,
        keptRows: this.#keptRows,
        kinds: this.#all("kind"),
      },
      counts: {
        top: Object.fromEntries(
          TOP_DIMS.map((
            dim,
          ) => [dim, splitTop(this.#all(dim))]),
        ) as ChunkCounts["top"],
        search: search.build(),
      },
    };
  }
}
