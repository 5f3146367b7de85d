// One MMDB file: its search tree walked straight off the bytes, its records
// decoded by the strict decoder, and the check made when a file is opened.
import { Decoder, MmdbError, type MmdbValue } from "./mmdb_format.ts";
import { type MmdbMetadata, readMetadata } from "./mmdb_metadata.ts";
import { readShared } from "./shared_file.ts";

export { MmdbError };

/** Records decoded by the open check: all of a small file's, a sample else. */
const SAMPLED_RECORDS = 4096;

export class MmdbDatabase {
  readonly metadata: MmdbMetadata;
  readonly ipVersion: 4 | 6;
  #bytes: Uint8Array;
  #nodeCount: number;
  #nodeBytes: number;
  #recordSize: number;
  #ipv4Start: number;
  /** The first 16 steps of IPv4 and IPv6 lookups (#top), made when first used. */
  #v4Top: Uint32Array | null = null;
  #v6Top: Uint32Array | null = null;
  #data: Decoder;

  /** Reads the metadata (throws MmdbError); `check()` reads the rest. */
  constructor(bytes: Uint8Array) {
    const metadata = readMetadata(bytes);
    this.metadata = metadata;
    this.ipVersion = metadata.ipVersion;
    this.#bytes = bytes;
    this.#nodeCount = metadata.nodeCount;
    this.#recordSize = metadata.recordSize;
    this.#nodeBytes = metadata.recordSize / 4;
    this.#data = new Decoder(bytes, metadata.dataStart, metadata.dataEnd);
    // IPv4 addresses in an IPv6 tree live under ::/96.
    let node = 0;
    if (metadata.ipVersion === 6) {
      for (let i = 0; i < 96 && node < this.#nodeCount; i++) {
        node = this.#child(node, 0);
      }
    }
    this.#ipv4Start = node;
  }

  /**
   * A node's left (`right` 0) or right (1) record. Read without a branch on
   * the side: the address's bits are as good as random, and a mispredicted
   * branch at each of a lookup's steps was much of its time.
   */
  #child(node: number, right: number): number {
    const b = this.#bytes;
    const o = node * this.#nodeBytes;
    switch (this.#recordSize) {
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
   * Where the first 16 bits of an address lead from `start`, by those bits:
   * a node, or a record when the tree ends sooner. A lookup starts there,
   * 16 steps in.
   */
  #top(start: number): Uint32Array {
    const top = new Uint32Array(1 << 16);
    const fill = (node: number, depth: number, prefix: number) => {
      if (depth === 16 || node >= this.#nodeCount) {
        const span = 1 << (16 - depth);
        top.fill(node, prefix * span, (prefix + 1) * span);
        return;
      }
      fill(this.#child(node, 0), depth + 1, prefix * 2);
      fill(this.#child(node, 1), depth + 1, prefix * 2 + 1);
    };
    fill(start, 0, 0);
    return top;
  }

  /**
   * The data record of an address given as 32-bit words (1 for IPv4, 4 for
   * IPv6), as a tree record value (> node count); 0 when none. An IPv6
   * address is never looked up in an IPv4 tree.
   */
  recordOf(words: ArrayLike<number>): number {
    if (words.length === 4 && this.ipVersion === 4) return 0;
    const nodeCount = this.#nodeCount;
    const top = words.length === 1
      ? this.#v4Top ??= this.#top(this.#ipv4Start)
      : this.#v6Top ??= this.#top(0);
    let node = top[words[0] >>> 16];
    for (let bit = 15; bit >= 0 && node < nodeCount; bit--) {
      node = this.#child(node, (words[0] >>> bit) & 1);
    }
    for (let w = 1; w < words.length && node < nodeCount; w++) {
      const word = words[w];
      for (let bit = 31; bit >= 0 && node < nodeCount; bit--) {
        node = this.#child(node, (word >>> bit) & 1);
      }
    }
    return node > nodeCount ? node : 0;
  }

  /** The value of a tree record (from recordOf). Throws MmdbError. */
  decodeRecord(record: number): MmdbValue {
    const offset = record - this.#nodeCount - 16;
    if (offset < 0) {
      throw new MmdbError(
        "a search tree record points into the 16 bytes between tree and data",
      );
    }
    if (this.#data.start + offset >= this.#data.end) {
      throw new MmdbError(
        "a search tree record points past the end of the data section",
      );
    }
    return this.#data.decode(offset);
  }

  /**
   * Walks the tree from its root, every reachable node once: each record is
   * a child node, "no data", or a record within the data section, no path
   * leads back to a node on it (lookups would go round in circles), and
   * every node is reached. A sample of the data records is decoded. Throws
   * MmdbError naming the first problem.
   */
  check(): void {
    const nodeCount = this.#nodeCount;
    if (nodeCount === 0) return;
    const dataSize = this.#data.end - this.#data.start;
    const step = Math.max(1, Math.floor(nodeCount / SAMPLED_RECORDS));
    const sampled = new Set<number>();
    // 0: not seen, 1: on the current path, 2: done.
    const state = new Uint8Array(nodeCount);
    // Each stack entry: a node and how many of its records were followed.
    // A path has at most one node per address bit.
    const bits = this.ipVersion === 6 ? 128 : 32;
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
      const record = this.#child(node, side);
      if (record < nodeCount) {
        if (state[record] === 1) {
          throw new MmdbError(
            `the search tree loops (node ${node} leads back to node ${record})`,
          );
        }
        if (state[record] === 0) {
          if (2 * top + 2 > stack.length) {
            throw new MmdbError(
              `the search tree is deeper than an address's ${bits} bits`,
            );
          }
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
        this.decodeRecord(record);
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

/**
 * A database file read into shared memory and checked (metadata, tree and a
 * sample of records). A file that fails is refused with one line naming it.
 * `verified`: a bundled package's file, whose hash the lockfile or
 * update-databases checked (and update-databases the tree): walking its
 * millions of nodes again at every load (seconds, on the thread that
 * answers requests) would prove again what the hash proves; its metadata
 * is read.
 */
export async function openCheckedMmdb(
  path: string,
  verified = false,
): Promise<Uint8Array> {
  const bytes = await readShared(path);
  try {
    const database = new MmdbDatabase(bytes);
    if (!verified) database.check();
  } catch (error) {
    if (error instanceof MmdbError) {
      throw new Error(
        `${path} cannot be read as a MaxMind DB file: ${error.message}`,
      );
    }
    throw error;
  }
  return bytes;
}
