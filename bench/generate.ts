// Seeded benchmark CSVs with a realistic mix: about half the rows repeat an
// address seen before, 10% IPv6, 1% invalid or private values, consumer-ISP
// and business addresses drawn from the bundled ASN data, three other
// columns and some quoted fields with commas. The same seed and row count
// always give the same file, so runs compare.
import { parseAsnList } from "../server/classification/lists.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const ASN_DIR = `${ROOT}node_modules/@ip-location-db/asn`;

export const IP_COLUMN = "ip_address";
export const HEADER = ["visited_at", IP_COLUMN, "page", "note"];

/** mulberry32: small, fast and seedable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Ranges {
  consumerV4: [number, number][];
  businessV4: [number, number][];
  v6: [bigint, bigint][];
}

let ranges: Ranges | null = null;

async function loadRanges(): Promise<Ranges> {
  if (ranges) return ranges;
  const consumer = new Set(
    parseAsnList(
      await Deno.readTextFile(`${ROOT}server/data/consumer_isps.txt`),
    ),
  );
  const consumerV4: [number, number][] = [];
  const businessV4: [number, number][] = [];
  const v4 = await Deno.readTextFile(`${ASN_DIR}/asn-ipv4-num.csv`);
  for (const line of v4.split("\n")) {
    const [start, end, asn] = line.split(",", 3);
    if (!asn) continue;
    const range: [number, number] = [Number(start), Number(end)];
    (consumer.has(Number(asn)) ? consumerV4 : businessV4).push(range);
  }
  const v6: [bigint, bigint][] = [];
  const v6Text = await Deno.readTextFile(`${ASN_DIR}/asn-ipv6-num.csv`);
  for (const line of v6Text.split("\n")) {
    const [start, end, asn] = line.split(",", 3);
    if (!asn) continue;
    v6.push([BigInt(start), BigInt(end)]);
  }
  ranges = { consumerV4, businessV4, v6 };
  return ranges;
}

const INVALID = [
  "10.1.2.3",
  "192.168.1.20",
  "172.16.5.4",
  "127.0.0.1",
  "not-an-ip",
  "unknown",
  "",
  "300.1.2.3",
  "fe80::1",
  "1.2.3",
];

const PAGES = [
  "/",
  "/pricing",
  "/docs/getting-started",
  "/blog/ip-enrichment",
  "/contact",
  "/careers",
  "/product/api",
];

const NOTES = [
  "",
  "organic",
  "newsletter",
  '"Smith, Jane"',
  '"campaign: spring, 2025"',
  '"Acme, Inc., Berlin"',
  '"said ""hello"", then left"',
  "retargeting",
];

export interface GeneratedFile {
  path: string;
  rows: number;
  bytes: number;
}

function v4Text(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

function v6Text(n: bigint): string {
  const parts: string[] = [];
  for (let i = 7; i >= 0; i--) {
    parts.push(((n >> BigInt(i * 16)) & 0xffffn).toString(16));
  }
  return parts.join(":");
}

async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<number> {
  for (let done = 0; done < data.length;) {
    done += await file.write(data.subarray(done));
  }
  return data.length;
}

/** Writes (or reuses) bench/out/bench-<rows>-<seed>.csv. */
export async function generateCsv(
  rows: number,
  outDir: string,
  seed = 20260605,
): Promise<GeneratedFile> {
  const path = `${outDir}/bench-${rows}-${seed}.csv`;
  try {
    const { size } = await Deno.stat(path);
    return { path, rows, bytes: size };
  } catch { /* not made yet */ }
  const { consumerV4, businessV4, v6 } = await loadRanges();
  const random = seededRandom(seed ^ rows);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const fresh = (): string => {
    const r = random();
    if (r < 0.01) return pick(INVALID);
    if (r < 0.11) {
      const [start, end] = pick(v6);
      const span = end - start + 1n;
      const offset = BigInt(Math.floor(random() * 2 ** 52)) % span;
      return v6Text(start + offset);
    }
    const [start, end] = r < 0.46 ? pick(consumerV4) : pick(businessV4);
    return v4Text(start + Math.floor(random() * (end - start + 1)));
  };
  const seen: string[] = [];
  const tmp = `${path}.tmp`;
  const file = await Deno.open(tmp, {
    write: true,
    create: true,
    truncate: true,
  });
  const encoder = new TextEncoder();
  let chunk = HEADER.join(",") + "\n";
  let bytes = 0;
  const start = Date.UTC(2025, 0, 1) / 1000;
  for (let i = 0; i < rows; i++) {
    let ip: string;
    if (seen.length > 0 && random() < 0.5) ip = pick(seen);
    else {
      ip = fresh();
      seen.push(ip);
    }
    const at = new Date((start + i * 7) * 1000).toISOString();
    chunk += `${at},${ip},${pick(PAGES)},${pick(NOTES)}\n`;
    if (chunk.length > 1 << 20) {
      bytes += await writeAll(file, encoder.encode(chunk));
      chunk = "";
    }
  }
  bytes += await writeAll(file, encoder.encode(chunk));
  file.close();
  await Deno.rename(tmp, path);
  return { path, rows, bytes };
}

/** The IP cells of a generated file, in row order (no CSV parser needed). */
export async function readIpCells(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(path);
  const cells: string[] = [];
  let at = text.indexOf("\n") + 1;
  while (at < text.length) {
    const end = text.indexOf("\n", at);
    const line = text.slice(at, end < 0 ? text.length : end);
    const a = line.indexOf(",");
    cells.push(line.slice(a + 1, line.indexOf(",", a + 1)));
    at = end < 0 ? text.length : end + 1;
  }
  return cells;
}
