// One MMDB file: its records found by address ranges made from its search
// tree (mmdb_ranges.ts), decoded by the strict decoder, and the check made
// when a file is opened. The tree's bytes are read once, when the file is
// opened, and not kept.
import { Decoder, MmdbError, type MmdbValue } from "./mmdb_format.ts";
import { type MmdbMetadata, readMetadata } from "./mmdb_metadata.ts";
import { SearchTree } from "./mmdb_tree.ts";
import { AddressRanges, buildRanges, type RangeTables } from "./mmdb_ranges.ts";
import { shareCopy } from "./shared_file.ts";

export { MmdbError };

/** What is kept of a file, in shared memory: cheap to send to workers. */
export interface MmdbFile {
  metadata: MmdbMetadata;
  /** The data section, which pointers in it count from. */
  data: Uint8Array;
  ranges: RangeTables;
}

/**
 * A file's bytes read into an MmdbFile; `check`: its tree walked and a
 * sample of its records decoded first (SearchTree.check). Throws MmdbError.
 */
export function readMmdb(bytes: Uint8Array, check = true): MmdbFile {
  const metadata = readMetadata(bytes);
  const tree = new SearchTree(bytes, metadata);
  if (check) tree.check();
  const { dataStart, dataEnd } = metadata;
  return {
    metadata,
    data: shareCopy(bytes.subarray(dataStart, dataEnd)),
    ranges: buildRanges(tree, dataEnd - dataStart),
  };
}

export class MmdbDatabase {
  readonly metadata: MmdbMetadata;
  readonly ipVersion: 4 | 6;
  #ranges: AddressRanges;
  #data: Decoder;

  constructor(file: MmdbFile) {
    this.metadata = file.metadata;
    this.ipVersion = file.metadata.ipVersion;
    this.#ranges = new AddressRanges(file.ranges);
    this.#data = new Decoder(file.data, 0, file.data.length);
  }

  /**
   * The data record of an address given as 32-bit words (1 for IPv4, 4 for
   * IPv6), as a number for decodeRecord; 0 when none.
   */
  recordOf(words: ArrayLike<number>): number {
    return this.#ranges.recordOf(words);
  }

  /** The value of a record (from recordOf). Throws MmdbError. */
  decodeRecord(record: number): MmdbValue {
    const offset = record - 16;
    if (offset < 0) {
      throw new MmdbError(
        "a search tree record points into the 16 bytes between tree and data",
      );
    }
    if (offset >= this.#data.end) {
      throw new MmdbError(
        "a search tree record points past the end of the data section",
      );
    }
    return this.#data.decode(offset);
  }
}

/**
 * A database file read and checked (metadata, tree and a sample of
 * records), its data section in shared memory. A file that fails is refused
 * with one line naming it. `verified`: a bundled package's file, whose hash
 * the lockfile or update-databases checked (and update-databases the tree):
 * checking its millions of nodes again at every load would prove again what
 * the hash proves; its ranges are made without the check.
 */
export async function openCheckedMmdb(
  path: string,
  verified = false,
): Promise<MmdbFile> {
  const bytes = await Deno.readFile(path);
  try {
    return readMmdb(bytes, !verified);
  } catch (error) {
    if (error instanceof MmdbError) {
      throw new Error(
        `${path} cannot be read as a MaxMind DB file: ${error.message}`,
      );
    }
    throw error;
  }
}
