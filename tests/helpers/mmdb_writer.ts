// Writes small MaxMind DB files to the format's spec, for tests that need a
// record no vendored file has (a latitude out of range, ISP fields, ...).
// One record per network, IPv4 or IPv6 trees with 24-bit records.

export type Value =
  | string
  | number
  | boolean
  | { uint: number }
  | Value[]
  | { [key: string]: Value };

const encoder = new TextEncoder();

function header(type: number, size: number): number[] {
  const out: number[] = [];
  let sizeBits: number;
  const extra: number[] = [];
  if (size < 29) sizeBits = size;
  else if (size < 285) {
    sizeBits = 29;
    extra.push(size - 29);
  } else {
    sizeBits = 30;
    const n = size - 285;
    extra.push(n >> 8, n & 0xff);
  }
  if (type <= 7) out.push((type << 5) | sizeBits);
  else out.push(sizeBits, type - 7);
  return [...out, ...extra];
}

function uintBytes(n: number): number[] {
  const bytes: number[] = [];
  while (n > 0) {
    bytes.unshift(n % 256);
    n = Math.floor(n / 256);
  }
  return bytes;
}

/** A value in the data section's encoding (no pointers). */
export function encode(value: Value): number[] {
  if (typeof value === "string") {
    const bytes = [...encoder.encode(value)];
    return [...header(2, bytes.length), ...bytes];
  }
  if (typeof value === "number") {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value);
    return [...header(3, 8), ...new Uint8Array(view.buffer)];
  }
  if (typeof value === "boolean") return header(14, value ? 1 : 0);
  if (Array.isArray(value)) {
    return [...header(11, value.length), ...value.flatMap(encode)];
  }
  if ("uint" in value && typeof value.uint === "number") {
    const bytes = uintBytes(value.uint);
    return [...header(6, bytes.length), ...bytes];
  }
  const entries = Object.entries(value as Record<string, Value>);
  return [
    ...header(7, entries.length),
    ...entries.flatMap(([k, v]) => [...encode(k), ...encode(v)]),
  ];
}

/**
 * An MMDB file of one IPv4 or IPv6 tree in which every address before the
 * split (the first half of the space) has `low` and every other `high`.
 */
export function writeMmdb(
  options: {
    ipVersion?: 4 | 6;
    databaseType?: string;
    /** Seconds since 1970 (build_epoch); 1,700,000,000 unless given. */
    buildEpoch?: number;
    low: Value;
    high?: Value;
  },
): Uint8Array {
  const ipVersion = options.ipVersion ?? 4;
  const low = encode(options.low);
  const high = options.high === undefined ? low : encode(options.high);
  const data = options.high === undefined ? low : [...low, ...high];
  // One node: its left record is the first half of the address space.
  const nodeCount = 1;
  const leftRecord = nodeCount + 16;
  const rightRecord = nodeCount + 16 +
    (options.high === undefined ? 0 : low.length);
  const tree = [
    ...[16, 8, 0].map((s) => (leftRecord >> s) & 0xff),
    ...[16, 8, 0].map((s) => (rightRecord >> s) & 0xff),
  ];
  const metadata = encode({
    binary_format_major_version: { uint: 2 },
    binary_format_minor_version: { uint: 0 },
    build_epoch: { uint: options.buildEpoch ?? 1_700_000_000 },
    database_type: options.databaseType ?? "Test",
    description: { en: "written by the tests" },
    ip_version: { uint: ipVersion },
    languages: ["en"],
    node_count: { uint: nodeCount },
    record_size: { uint: 24 },
  });
  return new Uint8Array([
    ...tree,
    ...new Array(16).fill(0),
    ...data,
    0xab,
    0xcd,
    0xef,
    ...encoder.encode("MaxMind.com"),
    ...metadata,
  ]);
}
