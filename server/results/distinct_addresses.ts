// How many distinct addresses a job's rows hold, across its chunks: each
// chunk keeps its own distinct addresses as one sorted list (`.addrs`,
// lines of ASCII text), and a completed job's lists are merged as bytes,
// a cursor per chunk, so counting holds the lists and no string per
// address.

import type { Enrichment } from "../enrichment/types.ts";

const NEWLINE = 10;
const encoder = new TextEncoder();

/**
 * The address a row counts as, or null when its cell held none (not an
 * address, a host name): failed rows of a private or reserved address
 * count, as the file holds them.
 */
export function addressOf(e: Enrichment): string | null {
  const kind = e.failure?.kind;
  return kind === "invalid" || kind === "hostname" || kind === "unresolved"
    ? null
    : e.ip;
}

/**
 * A chunk's distinct addresses as its `.addrs` part: sorted lines, each
 * once. `addresses` may repeat (each row's: sorting finds the repeats
 * cheaper than a set of every row's).
 */
export function encodeAddresses(addresses: Iterable<string>): Uint8Array {
  const sorted = sortedText([...addresses]);
  let lines = "";
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) lines += sorted[i] + "\n";
  }
  return encoder.encode(lines);
}

/**
 * The characters of addresses in code order, each sorting as its place
 * here (0: none, past a text's end): five bits a character.
 */
const RANK = new Int8Array(128).fill(-1);
[..."\0%.0123456789:ABCDEFabcdef"].forEach((c, i) => RANK[c.charCodeAt(0)] = i);
/** Characters of a text that sortedText sorts by as one number. */
const PREFIX = 7;
/** Bits of a text's index in that number (53 in all). */
const INDEX_BITS = 53 - 5 * PREFIX;
const INDEXES = 2 ** INDEX_BITS;

/**
 * `texts` in the order of `sort()`: by their first characters as one
 * number (a typed array's sort, no comparison called per pair), then each
 * run of one prefix by `sort()` (a file of one network's addresses makes
 * long runs). Texts with other characters than an address's in their
 * prefix are sorted by `sort()` alone.
 */
function sortedText(texts: string[]): string[] {
  const n = texts.length;
  if (n >= INDEXES) return texts.sort();
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const text = texts[i];
    let prefix = 0;
    for (let c = 0; c < PREFIX; c++) {
      const rank = c < text.length ? RANK[text.charCodeAt(c)] ?? -1 : 0;
      if (rank < 0) return texts.sort();
      prefix = prefix * 32 + rank;
    }
    keys[i] = prefix * INDEXES + i;
  }
  keys.sort();
  const sorted: string[] = [];
  for (let start = 0; start < n;) {
    const prefix = Math.floor(keys[start] / INDEXES);
    let end = start + 1;
    while (end < n && Math.floor(keys[end] / INDEXES) === prefix) end++;
    if (end - start === 1) sorted.push(texts[keys[start] % INDEXES]);
    else {
      const run: string[] = [];
      for (let i = start; i < end; i++) run.push(texts[keys[i] % INDEXES]);
      for (const text of run.sort()) sorted.push(text);
    }
    start = end;
  }
  return sorted;
}

/**
 * One list's place: the line at [start, end), and its first KEY_BYTES
 * bytes as one number (`key`, a shorter line's padded with zeros, which
 * no address has), which orders most pairs of lines at once.
 */
interface Cursor {
  bytes: Uint8Array;
  start: number;
  end: number;
  key: number;
}

const KEY_BYTES = 6;

/** Byte order of two lines (the lists' order: addresses are ASCII). */
function compare(a: Cursor, b: Cursor): number {
  if (a.key !== b.key) return a.key - b.key;
  const length = Math.min(a.end - a.start, b.end - b.start);
  for (let i = KEY_BYTES; i < length; i++) {
    const d = a.bytes[a.start + i] - b.bytes[b.start + i];
    if (d !== 0) return d;
  }
  return (a.end - a.start) - (b.end - b.start);
}

/** Moves a cursor to its next line; false at the list's end. */
function advance(cursor: Cursor, from: number): boolean {
  const { bytes } = cursor;
  if (from >= bytes.length) return false;
  cursor.start = from;
  const end = bytes.indexOf(NEWLINE, from);
  cursor.end = end === -1 ? bytes.length : end;
  let key = 0;
  for (let i = 0; i < KEY_BYTES; i++) {
    key = key * 256 + (from + i < cursor.end ? bytes[from + i] : 0);
  }
  cursor.key = key;
  return true;
}

/** Distinct lines over sorted lists (encodeAddresses), merged in order. */
export function countDistinct(lists: Uint8Array[]): number {
  // A binary heap of cursors, smallest line first.
  const heap: Cursor[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(heap[i], heap[parent]) >= 0) return;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < heap.length && compare(heap[l], heap[least]) < 0) least = l;
      if (r < heap.length && compare(heap[r], heap[least]) < 0) least = r;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least], heap[i]];
      i = least;
    }
  };
  for (const bytes of lists) {
    const cursor = { bytes, start: 0, end: 0, key: 0 };
    if (advance(cursor, 0)) {
      heap.push(cursor);
      up(heap.length - 1);
    }
  }
  let count = 0;
  let last: Cursor | null = null;
  while (heap.length > 0) {
    const top = heap[0];
    if (!last || compare(top, last) !== 0) {
      count++;
      last = { ...top };
    }
    if (!advance(top, top.end + 1)) {
      const tail = heap.pop()!;
      if (heap.length === 0) break;
      heap[0] = tail;
    }
    down(0);
  }
  return count;
}
