// A summary's top lists (companies, ASNs, countries, cities) added up from
// a job's chunks, exactly, without adding up every key of every chunk.
// Each chunk keeps its HEAD_KEYS largest counts as a list (its head) and
// the largest count of the rest (its tail) in its `.top`, and its tails as
// JSON text in its `.tail`, read only when needed. A key's total is at most
// what the heads say plus each tail's largest count where the key is not in
// the head; a key in no head at most the sum of those. Only the keys that
// can still reach the top N are looked up in the tails they may be in; when
// a key in no head could, every tail is read.
import type { KeyCount, TopDim } from "./chunk_output.ts";

/** Keys of each list a chunk keeps in its head. */
export const HEAD_KEYS = 500;

/** One top list of a chunk, as stored. */
export interface ChunkTop {
  /** The largest counts (in no order). */
  head: KeyCount[];
  /** The largest count in the tail (0: no tail). */
  tailMax: number;
  /** The other counts, as JSON text of a KeyCount list. */
  tail: string;
}

/**
 * Largest count first; ties by key, then code, in byte order (as SQLite's
 * BINARY collation had them).
 */
export function compareCounts(
  a: { key: string; code: string; n: number },
  b: { key: string; code: string; n: number },
): number {
  return b.n - a.n || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/**
 * A chunk's counts of one list as it keeps them: every count in the head at
 * least every count in the tail (in no order: the bounds need no more).
 */
export function splitTop(counts: KeyCount[], headKeys = HEAD_KEYS): ChunkTop {
  if (counts.length <= headKeys) return { head: counts, tailMax: 0, tail: "" };
  // The headKeys-th largest count: counts above it all go in the head,
  // counts at it fill the rest. Counts are rows (whole numbers), so it is
  // found by how many counts have each value, not by sorting them.
  let max = 0;
  for (const count of counts) if (count[2] > max) max = count[2];
  const ofValue = new Uint32Array(max + 1);
  for (const count of counts) ofValue[count[2]]++;
  let cut = max;
  for (let atLeast = ofValue[max]; atLeast < headKeys;) {
    atLeast += ofValue[--cut];
  }
  let room = headKeys;
  for (const count of counts) if (count[2] > cut) room--;
  const head: KeyCount[] = [];
  const tail: KeyCount[] = [];
  let tailMax = 0;
  for (const count of counts) {
    if (count[2] > cut || (count[2] === cut && room-- > 0)) head.push(count);
    else {
      tail.push(count);
      if (count[2] > tailMax) tailMax = count[2];
    }
  }
  return { head, tailMax, tail: JSON.stringify(tail) };
}

/**
 * One top list of a chunk as its `.top` keeps it: the head, and where its
 * tail's text is in the chunk's `.tail` (bytes `tailAt[0]` to `tailAt[1]`;
 * none without a tail).
 */
export interface StoredList {
  head: KeyCount[];
  tailMax: number;
  tailAt?: [number, number];
}

/** A chunk's `.top` as read. */
export type StoredTop = Partial<Record<TopDim, StoredList>>;

/**
 * A chunk's lists as stored: `top` for its `.top`, `tails` the pieces of its
 * `.tail`, one after another (none when no list has a tail).
 */
export function storedTops(
  lists: Record<TopDim, ChunkTop>,
): { top: StoredTop; tails: Uint8Array[] } {
  const encoder = new TextEncoder();
  const top: StoredTop = {};
  const tails: Uint8Array[] = [];
  let at = 0;
  for (const [dim, { head, tailMax, tail }] of Object.entries(lists)) {
    if (!tail) {
      top[dim as TopDim] = { head, tailMax };
      continue;
    }
    const bytes = encoder.encode(tail);
    top[dim as TopDim] = { head, tailMax, tailAt: [at, at + bytes.length] };
    tails.push(bytes);
    at += bytes.length;
  }
  return { top, tails };
}

export interface TopCount {
  key: string;
  code: string;
  n: number;
}

const idOf = (key: string, code: string) => code ? `${key}\u0000${code}` : key;

interface Candidate extends TopCount {
  /** The chunks (by number in this merge) whose head holds it. */
  heads: number[];
}

/** One top list added up over chunks, as they come. */
export class TopMerge {
  #keys = new Map<string, Candidate>();
  /** Per chunk: the largest count in its tail, and how to read the tail. */
  #tails: { max: number; read: () => Promise<string> }[] = [];
  #tailSum = 0;

  /**
   * Adds a chunk's list; `readTail` gives its tail's text (read again
   * from where the chunk keeps it, so tails are not held in memory).
   */
  add(
    top: { head: KeyCount[]; tailMax: number },
    readTail: () => Promise<string>,
  ): void {
    const chunk = this.#tails.length;
    this.#tails.push({ max: top.tailMax, read: readTail });
    this.#tailSum += top.tailMax;
    for (const [key, code, n] of top.head) {
      const id = idOf(key, code);
      const known = this.#keys.get(id);
      if (known) {
        known.n += n;
        known.heads.push(chunk);
      } else this.#keys.set(id, { key, code, n, heads: [chunk] });
    }
  }

  /** The top `n` keys with their exact totals, largest first. */
  async top(n: number): Promise<TopCount[]> {
    const heads = [...this.#keys.values()].sort(compareCounts);
    // The n-th largest total is at least the n-th largest sum of heads.
    const floor = heads.length >= n ? heads[n - 1].n : 0;
    if (this.#tailSum > 0 && this.#tailSum >= floor) return this.#all(n);
    // Keys that may reach the floor: their counts in the tails of the
    // chunks whose head does not hold them.
    const wanted = new Map<number, Candidate[]>();
    for (const candidate of heads) {
      let missing = this.#tailSum;
      for (const chunk of candidate.heads) missing -= this.#tails[chunk].max;
      if (candidate.n + missing < floor) continue;
      if (missing === 0) continue;
      const inHead = new Set(candidate.heads);
      for (const [chunk, tail] of this.#tails.entries()) {
        if (tail.max === 0 || inHead.has(chunk)) continue;
        let list = wanted.get(chunk);
        if (!list) wanted.set(chunk, list = []);
        list.push(candidate);
      }
    }
    const totals = new Map<Candidate, number>();
    for (const [chunk, candidates] of wanted) {
      const tail = await this.#readTail(chunk);
      for (const candidate of candidates) {
        const count = tail.get(idOf(candidate.key, candidate.code)) ?? 0;
        totals.set(candidate, (totals.get(candidate) ?? candidate.n) + count);
      }
    }
    return heads
      .map((c) => ({ key: c.key, code: c.code, n: totals.get(c) ?? c.n }))
      .sort(compareCounts)
      .slice(0, n);
  }

  async #readTail(chunk: number): Promise<Map<string, number>> {
    const text = await this.#tails[chunk].read();
    const counts = new Map<string, number>();
    for (const [key, code, n] of JSON.parse(text) as KeyCount[]) {
      counts.set(idOf(key, code), n);
    }
    return counts;
  }

  /** Every key of every chunk added up (when a key in no head may win). */
  async #all(n: number): Promise<TopCount[]> {
    const all = new Map<string, TopCount>();
    for (const [id, { key, code, n: count }] of this.#keys) {
      all.set(id, { key, code, n: count });
    }
    for (const tail of this.#tails) {
      if (tail.max === 0) continue;
      for (const [key, code, count] of JSON.parse(await tail.read())) {
        const id = idOf(key, code);
        const known = all.get(id);
        if (known) known.n += count;
        else all.set(id, { key, code, n: count });
      }
    }
    return [...all.values()].sort(compareCounts).slice(0, n);
  }
}
