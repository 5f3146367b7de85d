// An MMDB search tree turned into sorted address ranges, which lookups
// search instead of walking the tree. The ranges are read 16 bits of an
// address at a time: a table for each tree node met 16, 32, ... bits deep
// lists where, in the address's next 16 bits, each range starts and what it
// leads to (a record, or the next table), neighbouring ranges that lead to
// the same record merged. They take fewer bytes than the tree, and a binary
// search in one small sorted table replaces up to 16 steps through nodes
// spread across it. The first 16 bits of an address are an index.
//
// A value is 0 for no record; below `firstTable`, a record, as the tree's
// record value less node_count (16 plus the record's offset in the data
// section; 1-15 point into the 16 bytes before it, and one value stands for
// any record past its end: both decode to errors); from `firstTable` on,
// the table numbered `value - firstTable`.
import { deeperThan, type SearchTree } from "./mmdb_tree.ts";
import { MmdbError } from "./mmdb_format.ts";
import { shareCopy } from "./shared_file.ts";
import { release, resized } from "../typed_arrays.ts";

/** A file's ranges, in shared memory: what each thread's lookups read. */
export interface RangeTables {
  /** Per entry: where in its table's 16 bits its range starts. */
  starts: Uint16Array;
  /** Per entry: what its range leads to (see above). */
  values: Uint32Array;
  /** Table t's entries run from ends[t - 1] (0 for the first) to ends[t]. */
  ends: Uint32Array;
  /** The value of each first 16 bits of an IPv4 address. */
  v4Top: Uint32Array;
  /** The same for IPv6; empty for an IPv4 file. */
  v6Top: Uint32Array;
  firstTable: number;
}

/** Bits of an address one table covers. */
const STEP = 16;

/**
 * The ranges of a tree whose data section is `dataSize` bytes. Throws
 * MmdbError for a path longer than an address, or nodes shared by so many
 * paths that the ranges would not end (neither passes the open check's
 * walk, or a writer).
 */
export function buildRanges(tree: SearchTree, dataSize: number): RangeTables {
  const { nodeCount, bits } = tree;
  const levels = bits / STEP;
  const firstTable = dataSize + 17;
  const pastEnd = dataSize + 16;
  // Values are 32-bit: records, then a table per node at most.
  if (firstTable + nodeCount >= 2 ** 32) {
    throw new MmdbError("the file is too large to index (4 GB or more)");
  }
  // A tree of n nodes has n + 1 records to reach; more only when records
  // are reached by more than one path.
  let starts = new Uint16Array(nodeCount + 2);
  let values = new Uint32Array(nodeCount + 2);
  let ends = new Uint32Array(1024);
  let count = 0;
  let tables = 0;
  // The nodes a walk may visit before the tree is taken for one whose nodes
  // are shared by so many paths that its ranges would not end.
  let budget = 2 * nodeCount + (1 << STEP);
  // Per level, the entries of the table being made, and the walk's stack.
  const perLevel = <T>(make: () => T): T[] =>
    Array.from({ length: levels }, make);
  const tableStarts = perLevel(() => new Uint16Array(1 << STEP));
  const tableValues = perLevel(() => new Uint32Array(1 << STEP));
  const stackNodes = perLevel(() => new Uint32Array(STEP + 1));
  const stackPaths = perLevel(() => new Int32Array(STEP + 1));
  const recordValue = (record: number) => Math.min(record - nodeCount, pastEnd);

  // IPv4 addresses of an IPv6 tree live under ::/96, and writers point
  // ::ffff:0:0/96 and 2002::/16 at the same node: its table is made once.
  const ipv4Start = tree.ipv4Start();
  let ipv4Table = -1;

  /** Stores a table's `n` entries; its value. */
  const store = (
    tableStart: Uint16Array,
    tableValue: Uint32Array,
    n: number,
  ) => {
    if (count + n > starts.length) {
      starts = resized(starts, 2 * (count + n));
      values = resized(values, 2 * (count + n));
    }
    for (let i = 0; i < n; i++) {
      starts[count + i] = tableStart[i];
      values[count + i] = tableValue[i];
    }
    count += n;
    if (tables === ends.length) ends = resized(ends, 2 * tables);
    ends[tables++] = count;
    return firstTable + tables - 1;
  };

  /**
   * The value of a node met `level` steps deep: the table of the ranges
   * under it (made after those of its own tables), or the record all of
   * them lead to.
   */
  const table = (root: number, level: number): number => {
    if (root === ipv4Start && ipv4Table >= 0) return ipv4Table;
    const entryStarts = tableStarts[level];
    const entryValues = tableValues[level];
    const nodes = stackNodes[level];
    const paths = stackPaths[level];
    let n = 0;
    let last = -1;
    let top = 0;
    // The bits taken so far below a leading 1, which marks how many.
    let node = root;
    let path = 1;
    for (;;) {
      if (node < nodeCount && path < 1 << STEP) {
        if (--budget < 0) {
          throw new MmdbError(
            "the search tree's nodes are shared by too many networks to index",
          );
        }
        nodes[top] = tree.child(node, 1);
        paths[top++] = path * 2 + 1;
        node = tree.child(node, 0);
        path *= 2;
        continue;
      }
      let value: number;
      if (node >= nodeCount) value = recordValue(node);
      else if (level + 1 < levels) value = table(node, level + 1);
      else throw deeperThan(bits);
      if (value !== last) {
        const depth = 31 - Math.clz32(path);
        entryStarts[n] = (path - (1 << depth)) << (STEP - depth);
        entryValues[n++] = last = value;
      }
      if (top === 0) break;
      node = nodes[--top];
      path = paths[top];
    }
    const value = n === 1 && last < firstTable
      ? last
      : store(entryStarts, entryValues, n);
    if (root === ipv4Start) ipv4Table = value;
    return value;
  };

  const root = nodeCount > 0 ? table(0, 0) : recordValue(0);
  const ipv4 = bits === 32
    ? root
    : ipv4Start < nodeCount
    ? table(ipv4Start, 96 / STEP)
    : recordValue(ipv4Start);
  const shared = {
    starts: shareCopy(starts.subarray(0, count)),
    values: shareCopy(values.subarray(0, count)),
    ends: shareCopy(ends.subarray(0, tables)),
    firstTable,
  };
  release(starts, values);
  return {
    ...shared,
    v4Top: topIndex(shared, ipv4),
    v6Top: topIndex(shared, bits === 128 ? root : -1),
  };
}

/**
 * The value of each first 16 bits of an address, from the value of the
 * tree's root (or where IPv4 starts); -1: empty (no such addresses).
 */
function topIndex(
  ranges: Omit<RangeTables, "v4Top" | "v6Top">,
  value: number,
): Uint32Array {
  if (value < 0) return new Uint32Array(new SharedArrayBuffer(0));
  const { starts, values, ends, firstTable } = ranges;
  const index = new Uint32Array(new SharedArrayBuffer(4 << STEP));
  if (value < firstTable) return index.fill(value);
  const table = value - firstTable;
  const from = table === 0 ? 0 : ends[table - 1];
  const to = ends[table];
  for (let i = from; i < to; i++) {
    index.fill(values[i], starts[i], i + 1 < to ? starts[i + 1] : undefined);
  }
  return index;
}

/** Lookups in a file's ranges. */
export class AddressRanges {
  #starts: Uint16Array;
  #values: Uint32Array;
  #ends: Uint32Array;
  #v4Top: Uint32Array;
  #v6Top: Uint32Array;
  #firstTable: number;

  constructor(tables: RangeTables) {
    this.#starts = tables.starts;
    this.#values = tables.values;
    this.#ends = tables.ends;
    this.#v4Top = tables.v4Top;
    this.#v6Top = tables.v6Top;
    this.#firstTable = tables.firstTable;
  }

  /**
   * The record of an address given as 32-bit words (1 for IPv4, 4 for
   * IPv6), as a value (see above); 0 when none. An IPv6 address is never
   * looked up in an IPv4 file.
   */
  recordOf(words: ArrayLike<number>): number {
    const top = words.length === 1 ? this.#v4Top : this.#v6Top;
    if (top.length === 0) return 0;
    const starts = this.#starts;
    const ends = this.#ends;
    const firstTable = this.#firstTable;
    let value = top[words[0] >>> STEP];
    for (let step = 1; value >= firstTable; step++) {
      const table = value - firstTable;
      // Each table's first range starts at 0: the last start at or before
      // the address's bits is there to find.
      let at = table === 0 ? 0 : ends[table - 1];
      let count = ends[table] - at;
      const bits = (words[step >> 1] >>> (step & 1 ? 0 : STEP)) & 0xffff;
      while (count > 1) {
        const half = count >>> 1;
        at = starts[at + half] <= bits ? at + half : at;
        count -= half;
      }
      value = this.#values[at];
    }
    return value;
  }
}
