// A chunk's rows by company, ASN, network type and whether left out, kept
// beside its parts for the preview's text search ("contains, ignoring
// case", preview_filters.ts). The names are lower-cased into one string that
// a search scans with indexOf: a search costs a read and a scan of each
// chunk's names, with no per-name work and no job-wide index to build first
// (merging the chunks' names by key took seconds for a million rows).
import { deserialize, serialize } from "node:v8";

/** Ends each name in `text`: a search text holding it matches nothing. */
const END = "\u0000";

export interface SearchCounts {
  /**
   * Each entry's company then ASN, lower-cased, each followed by END (the
   * company left out when the ASN holds it).
   */
  text: string;
  /** Where each entry starts in `text`, and its end (entries + 1). */
  starts: Int32Array;
  /** Per entry: network type (index in `types`, -1 none), left out, rows. */
  info: Int32Array;
  types: string[];
}

const INFO = 3;

/** Collects a chunk's entries (one per company, ASN, type and left out). */
export class SearchCountsBuilder {
  #text: string[] = [];
  #starts: number[] = [0];
  #info: number[] = [];
  #types: string[] = [];
  #end = 0;

  add(
    company: string | null,
    asn: string | null,
    type: string | null,
    filtered: boolean,
    rows: number,
  ): void {
    const ownName = (company ?? "").toLowerCase();
    const asName = (asn ?? "").toLowerCase();
    // A company named inside its ASN ("AS15169 Google LLC") is found there:
    // its name is kept once, a third less to read and scan.
    const names = asName.includes(ownName)
      ? `${asName}${END}`
      : `${ownName}${END}${asName}${END}`;
    this.#text.push(names);
    this.#end += names.length;
    this.#starts.push(this.#end);
    let typeId = type === null ? -1 : this.#types.indexOf(type);
    if (type !== null && typeId < 0) typeId = this.#types.push(type) - 1;
    this.#info.push(typeId, filtered ? 1 : 0, rows);
  }

  build(): SearchCounts {
    return {
      text: this.#text.join(""),
      starts: Int32Array.from(this.#starts),
      info: Int32Array.from(this.#info),
      types: this.#types,
    };
  }
}

export function encodeSearchCounts(counts: SearchCounts): Uint8Array {
  return serialize(counts);
}

export function decodeSearchCounts(bytes: Uint8Array): SearchCounts {
  return deserialize(bytes);
}

/** The entry whose names hold position `at` of the text. */
function entryAt(starts: Int32Array, at: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Rows whose company or ASN contains `text` (ignoring case) and whose
 * network type and status pass `rest`, the filter's other conditions.
 */
export function countMatches(
  counts: SearchCounts,
  text: string,
  rest: (type: string | null, filtered: boolean) => boolean,
): number {
  const needle = text.toLowerCase();
  if (!needle || needle.includes(END)) return 0;
  let rows = 0;
  let at = counts.text.indexOf(needle);
  while (at >= 0) {
    const entry = entryAt(counts.starts, at);
    const type = counts.info[entry * INFO];
    if (
      rest(
        type < 0 ? null : counts.types[type],
        counts.info[entry * INFO + 1] === 1,
      )
    ) rows += counts.info[entry * INFO + 2];
    at = counts.text.indexOf(needle, counts.starts[entry + 1]);
  }
  return rows;
}
