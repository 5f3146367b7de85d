// How a job's upload cuts become its chunks: about 64 of even size, none
// over CHUNK_ROWS; when the job looks host names up, few large ones after a
// few small ones.
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
function sizes(cuts: RowChunk[], chunkRows: number, dns = false) {
  const chunks = groupCuts(cuts, chunkRows, dns);
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
  // A last chunk under half the size joins a full one before it, when the
  // two fit in CHUNK_ROWS.
  assertEquals(sizes(cutsOf(105_000, CUT_ROWS), 60_000, true), [
    100,
    800,
    50_000,
    54_100,
  ]);
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
  // A smaller CHUNK_ROWS bounds them too.
  const small = sizes(cutsOf(200_000, 97), 20_000, true);
  assertEquals(Math.max(...small) <= 20_000, true);
  assertEquals(small.slice(0, 3), [194, 873, 19_982]);
});
