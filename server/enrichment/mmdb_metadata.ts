// The metadata at the end of an MMDB file, checked against the file: the
// keys readers need, their types and values, and a search tree that fits.
import { Decoder, MmdbError } from "./mmdb_format.ts";

// The marker's bytes are 0xAB 0xCD 0xEF then ASCII "MaxMind.com".
const MARKER = new Uint8Array([
  0xab,
  0xcd,
  0xef,
  ...new TextEncoder().encode("MaxMind.com"),
]);
/** Readers look for the metadata in the last 128 KiB of a file. */
const METADATA_WINDOW = 128 * 1024;

export interface MmdbMetadata {
  nodeCount: number;
  recordSize: 24 | 28 | 32;
  ipVersion: 4 | 6;
  databaseType: string;
  buildEpoch: number;
  /** Bytes of the search tree; the data section starts 16 bytes after. */
  treeSize: number;
  dataStart: number;
  /** Where the metadata marker starts: the end of the data section. */
  dataEnd: number;
}

function lastIndexOf(bytes: Uint8Array, needle: Uint8Array): number {
  const from = Math.max(0, bytes.length - METADATA_WINDOW);
  outer: for (let i = bytes.length - needle.length; i >= from; i--) {
    for (let k = 0; k < needle.length; k++) {
      if (bytes[i + k] !== needle[k]) continue outer;
    }
    return i;
  }
  return -1;
}

// A build date after the year 9999 is no date: it overflows readers' time
// conversions.
const LAST_EPOCH = 253402300799;

/** The metadata, checked against the file's size. Throws MmdbError. */
export function readMetadata(bytes: Uint8Array): MmdbMetadata {
  const marker = lastIndexOf(bytes, MARKER);
  if (marker < 0) {
    throw new MmdbError("no MaxMind DB metadata (not an MMDB file?)");
  }
  const start = marker + MARKER.length;
  const raw = new Decoder(bytes, start, bytes.length).decode(0);
  if (
    typeof raw !== "object" || raw instanceof Uint8Array || Array.isArray(raw)
  ) {
    throw new MmdbError("the metadata is not a map");
  }
  const uint = (key: string): number => {
    const value = raw[key];
    if (value === undefined) {
      throw new MmdbError(`the metadata has no ${key}`);
    }
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      throw new MmdbError(`the metadata's ${key} is not an unsigned integer`);
    }
    return value;
  };
  if (uint("binary_format_major_version") !== 2) {
    throw new MmdbError(
      `binary format version ${raw.binary_format_major_version} (only 2 is read)`,
    );
  }
  const nodeCount = uint("node_count");
  const recordSize = uint("record_size");
  if (recordSize !== 24 && recordSize !== 28 && recordSize !== 32) {
    throw new MmdbError(`record size ${recordSize} (must be 24, 28 or 32)`);
  }
  const ipVersion = uint("ip_version");
  if (ipVersion !== 4 && ipVersion !== 6) {
    throw new MmdbError(`IP version ${ipVersion} (must be 4 or 6)`);
  }
  if (typeof raw.database_type !== "string") {
    throw new MmdbError("the metadata has no database_type string");
  }
  if (typeof raw.build_epoch === "bigint" || uint("build_epoch") > LAST_EPOCH) {
    throw new MmdbError(
      `build_epoch ${raw.build_epoch} is not a date (after the year 9999)`,
    );
  }
  const treeSize = nodeCount * recordSize / 4;
  if (treeSize + 16 > marker) {
    throw new MmdbError(
      `node_count ${nodeCount} needs a ${treeSize}-byte search tree, ` +
        `larger than the file's ${marker} bytes before its metadata`,
    );
  }
  for (let i = treeSize; i < treeSize + 16; i++) {
    if (bytes[i] !== 0) {
      throw new MmdbError(
        "the 16 zero bytes between search tree and data are not zero " +
          "(wrong node_count?)",
      );
    }
  }
  return {
    nodeCount,
    recordSize,
    ipVersion,
    databaseType: raw.database_type,
    buildEpoch: raw.build_epoch as number,
    treeSize,
    dataStart: treeSize + 16,
    dataEnd: marker,
  };
}
