// How a job's upload cuts become its chunks: about 64 of even size, none
// over CHUNK_ROWS; when the job looks host names up, few of DNS_CHUNK_ROWS
// after a few small ones.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { CUT_ROWS, type RowChunk } from "../csv/row_chunks.ts";
import { groupCuts } from "./run_chunk.ts";

/** Cuts of `size` rows, back to back, `total` rows in all. */
function cutsOf(total: number, size: number): RowChunk[] {
  const cuts: RowChunk[] = [];
  for (let row = 0; row < total; row += size) {
    const rows = Math.min(size, total - row);
    cuts.push({ start: row * 10, end: (row + rows) * 10, firstRow: row, rows });
  }
  return cuts;
}

/** The rows of each chunk, checking they are the cuts back to back. */
function sizes(cuts: RowChunk[], rows: number, dns = false) {
  const limits = dns ? { rows: 1, dnsRows: rows } : { rows, dnsRows: 1 };
  const chunks = groupCuts(cuts, limits, dns);
  chunks.forEach((chunk, i) => {
    if (i > 0) assertEquals(chunk.start, chunks[i - 1].end);
  });
  assertEquals(chunks[0].start, cuts[0].start);
  assertEquals(chunks.at(-1)!.end, cuts.at(-1)!.end);
  return chunks.map((chunk) => chunk.rows);
}

Deno.test("a job's chunks: about 64 of even size, at most CHUNK_ROWS", () => {
  assertEquals(sizes(cutsOf(600, CUT_ROWS), 50_000), Array(6).fill(100));
  assertEquals(sizes(cutsOf(150, 150), 50_000), [150]);
  const million = sizes(cutsOf(1_000_000, 977), 50_000);
  assertEquals(million.length, 64);
  assertEquals(Math.max(...million) - Math.min(...million) <= 977, true);
  // Past 64 x CHUNK_ROWS rows, more chunks rather than larger ones, none
  // past CHUNK_ROWS.
  const large = sizes(cutsOf(4_000_000, 3907), 50_000);
  assertEquals(large.length >= 80 && large.length <= 90, true);
  assertEquals(Math.max(...large) <= 50_000, true);
  // 16,000: a 3M-row job's chunks (its upload cut about every 3,200 rows,
  // MAX_CUTS) are no larger than a 1M-row job's.
  const three = sizes(cutsOf(3_000_000, 3_210), 16_000);
  assertEquals(three.length >= 188 && three.length <= 240, true);
  assertEquals(Math.max(...three) <= 16_000, true);
});

Deno.test("a job's chunk sizes: CHUNK_ROWS and DNS_CHUNK_ROWS apart", () => {
  const cuts = cutsOf(200_000, CUT_ROWS);
  const sizes = { rows: 16_000, dnsRows: 50_000 };
  const plain = groupCuts(cuts, sizes).map((c) => c.rows);
  const dns = groupCuts(cuts, sizes, true).map((c) => c.rows);
  assertEquals(plain.length, 64);
  assertEquals(Math.max(...plain) <= 16_000, true);
  assertEquals(dns, [100, 800, 50_000, 50_000, 50_000, 49_100]);
});

Deno.test("a job with Domain on: small chunks first, then large ones", () => {
  // Rows show after the first 100, then 800, then chunks of 50,000.
  assertEquals(sizes(cutsOf(100_000, CUT_ROWS), 50_000, true), [
    100,
    800,
    50_000,
    49_100,
  ]);
  assertEquals(sizes(cutsOf(600, CUT_ROWS), 50_000, true), [100, 500]);
  assertEquals(sizes(cutsOf(110_000, CUT_ROWS), 50_000, true), [
    100,
    800,
    50_000,
    50_000,
    9_100,
  ]);
  assertEquals(sizes(cutsOf(20_000, CUT_ROWS), 50_000, true), [
    100,
    800,
    19_100,
  ]);
  // A smaller DNS_CHUNK_ROWS makes them smaller.
  const small = sizes(cutsOf(200_000, 97), 20_000, true);
  assertEquals(Math.max(...small) <= 20_000, true);
  assertEquals(small.slice(0, 3), [194, 873, 19_982]);
});
