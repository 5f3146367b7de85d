// An MMDB file's search tree as written: nodes of two records read straight
// off the file's bytes, and the check made when a file is opened. Lookups
// do not walk it: it is turned into address ranges (mmdb_ranges.ts).
import { Decoder, MmdbError } from "./mmdb_format.ts";
import type { MmdbMetadata } from "./mmdb_metadata.ts";

/** Records decoded by the open check: all of a small file's, a sample else. */
const SAMPLED_RECORDS = 4096;

export class SearchTree {
  readonly nodeCount: number;
  /** The bits of an address the tree is searched by. */
  readonly bits: 32 | 128;
  /** Bytes of one node: its two records. */
  readonly nodeBytes: number;
  readonly recordSize: 24 | 28 | 32;

  /** `bytes`: the whole file, `metadata` read from it (readMetadata). */
  constructor(readonly bytes: Uint8Array, readonly metadata: MmdbMetadata) {
    this.nodeCount = metadata.nodeCount;
    this.bits = metadata.ipVersion === 6 ? 128 : 32;
    this.recordSize = metadata.recordSize;
    this.nodeBytes = metadata.recordSize / 4;
  }

  /** A node's left (`right` 0) or right (1) record. */
  child(node: number, right: number): number {
    const b = this.bytes;
    const o = node * this.nodeBytes;
    switch (this.recordSize) {
      case 24: {
        const p = o + right * 3;
        return (b[p] << 16) | (b[p + 1] << 8) | b[p + 2];
      }
      case 28: {
        // The middle byte: the left record's high nibble, the right's low one.
        const p = o + right * 4;
        return (((b[o + 3] >> (4 - right * 4)) & 0x0f) << 24) |
          (b[p] << 16) | (b[p + 1] << 8) | b[p + 2];
      }
      default: {
        const p = o + right * 4;
        return ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) |
          b[p + 3]) >>>
          0;
      }
    }
  }

  /**
   * Where IPv4 addresses start: the root of an IPv4 tree; in an IPv6 tree
   * the node at ::/96, or the record a shorter path there ends in.
   */
  ipv4Start(): number {
    let node = 0;
    if (this.bits === 128) {
      for (let i = 0; i < 96 && node < this.nodeCount; i++) {
        node = this.child(node, 0);
      }
    }
    return node;
  }

  /**
   * Walks the tree from its root, every reachable node once: each record is
   * a child node, "no data", or a record within the data section, no path
   * leads back to a node on it (lookups would go round in circles), and
   * every node is reached. A sample of the data records is decoded. Throws
   * MmdbError naming the first problem.
   */
  check(): void {
    const nodeCount = this.nodeCount;
    if (nodeCount === 0) return;
    const { dataStart, dataEnd } = this.metadata;
    const data = new Decoder(this.bytes, dataStart, dataEnd);
    const dataSize = dataEnd - dataStart;
    const step = Math.max(1, Math.floor(nodeCount / SAMPLED_RECORDS));
    const sampled = new Set<number>();
    // 0: not seen, 1: on the current path, 2: done.
    const state = new Uint8Array(nodeCount);
    // Each stack entry: a node and how many of its records were followed.
    // A path has at most one node per address bit.
    const bits = this.bits;
    const stack = new Int32Array(2 * bits);
    let top = 0;
    let seen = 0;
    let reached = 1;
    stack[0] = 0;
    stack[1] = 0;
    state[0] = 1;
    top = 1;
    while (top > 0) {
      const node = stack[2 * top - 2];
      const side = stack[2 * top - 1];
      if (side === 2) {
        state[node] = 2;
        top--;
        continue;
      }
      stack[2 * top - 1] = side + 1;
      const record = this.child(node, side);
      if (record < nodeCount) {
        if (state[record] === 1) {
          throw new MmdbError(
            `the search tree loops (node ${node} leads back to node ${record})`,
          );
        }
        if (state[record] === 0) {
          if (2 * top + 2 > stack.length) throw deeperThan(bits);
          state[record] = 1;
          reached++;
          stack[2 * top] = record;
          stack[2 * top + 1] = 0;
          top++;
        }
        continue;
      }
      if (record === nodeCount) continue;
      const offset = record - nodeCount - 16;
      if (offset < 0 || offset >= dataSize) {
        throw new MmdbError(
          `search tree node ${node} points ${
            offset < 0
              ? "into the 16 bytes between tree and data"
              : "past the end of the data section"
          }`,
        );
      }
      if (seen++ % step === 0 && !sampled.has(record)) {
        sampled.add(record);
        data.decode(offset);
      }
    }
    // Writers number exactly the nodes they write; nodes no address reaches
    // mean the tree or node_count is wrong.
    if (reached < nodeCount) {
      throw new MmdbError(
        `only ${reached} of the ${nodeCount} search tree nodes are reachable ` +
          "from the root (a corrupt tree or node_count)",
      );
    }
  }
}

/** A path through the tree longer than an address. */
export function deeperThan(bits: number): MmdbError {
  return new MmdbError(
    `the search tree is deeper than an address's ${bits} bits`,
  );
}
