import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { CsvUploadReader } from "../routes/csv_upload_reader.ts";
import { ipv4Text } from "../enrichment/ip_input.ts";
import { readChunkLines } from "./chunk_lines.ts";
import type { Dialect } from "./dialect.ts";
import { type RowChunk, RowChunker } from "./row_chunks.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Records of bytes [start, end) as [cells, line as stored]. */
async function records(path: string, dialect: Dialect, range: RowChunk) {
  const got: [string, string][] = [];
  for await (const batch of readChunkLines(path, dialect, range, 0)) {
    for (let i = 0; i < batch.count; i++) {
      const line = batch.buf.subarray(batch.start[i], batch.end[i]);
      const v4 = batch.v4[i];
      const cell = v4 >= 0 ? ipv4Text(v4) : batch.cells[i];
      got.push([cell, decoder.decode(line)]);
    }
  }
  return got;
}

/**
 * Checks that the chunks follow one another over the whole file and that
 * reading them gives the whole file's records, in order.
 */
async function checkChunks(
  path: string,
  dialect: Dialect,
  chunks: RowChunk[],
): Promise<void> {
  const size = (await Deno.stat(path)).size;
  const whole = await records(path, dialect, {
    start: 0,
    end: size,
    firstRow: 0,
    rows: 0,
  });
  const got: [string, string][] = [];
  assertEquals(chunks[0].start, 0);
  for (const [i, chunk] of chunks.entries()) {
    assertEquals(chunk.firstRow, got.length, `chunk ${i} starts in order`);
    if (i > 0) assertEquals(chunk.start, chunks[i - 1].end);
    const rows = await records(path, dialect, chunk);
    // The first chunk holds the header row.
    if (i === 0) rows.shift();
    assertEquals(rows.length, chunk.rows, `rows read from chunk ${i}`);
    got.push(...rows);
  }
  assertEquals(got, whole.slice(1));
  assertEquals(chunks.at(-1)!.end, size);
}

/** Cuts `text` as an upload, fed in pieces of `piece` bytes. */
function cut(text: string, piece: number, chunkRows: number) {
  const bytes = encoder.encode(text);
  const stored: Uint8Array[] = [];
  const reader = new CsvUploadReader((b) => stored.push(b), {}, chunkRows);
  for (let at = 0; at < bytes.length; at += piece) {
    reader.push(bytes.subarray(at, at + piece));
  }
  return { counted: reader.end(), stored };
}

async function withFile(
  bytes: Uint8Array[],
  run: (path: string) => Promise<void>,
) {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "upload.csv");
  const file = await Deno.open(path, { write: true, create: true });
  for (const piece of bytes) await file.write(piece);
  file.close();
  try {
    await run(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const CASES: [string, string][] = [
  ["plain, ends with newline", "ip,n\n1.1.1.1,1\n2.2.2.2,2\n3.3.3.3,3\n"],
  ["no final newline", "ip,n\n1.1.1.1,1\n2.2.2.2,2\n3.3.3.3,3"],
  [
    "quoted newlines, CRLF, escaped quotes",
    'ip,note\r\n1.1.1.1,"a\r\nb"\r\n2.2.2.2,"say ""hi""\nthere"\r\n' +
    '"3.3.3.3","x,y"\r\n4.4.4.4,\r\n',
  ],
  [
    "empty lines are skipped",
    '\n\nip,n\n\n1.1.1.1,1\n\n""\n2.2.2.2,2\n\n\n3.3.3.3,3\n\n',
  ],
  ["mixed line ends", "ip,n\r\n1.1.1.1,a\n2.2.2.2,b\r\n"],
  ["CR line ends", "ip;n\r1.1.1.1;1\r2.2.2.2;2\r"],
  ["a quote inside an unquoted cell is text", 'ip\tn\n1.1.1.1\ta"b\n'],
  [
    "non-ASCII text and a byte order mark inside",
    "ip,n\n1.1.1.1,é\u{1F600}\n\uFEFF2.2.2.2,ü\n3.3.3.3,ß\n",
  ],
  ["header only", "ip,n\n"],
  ["smaller than one chunk", "ip\n1.1.1.1\n"],
];

for (const [name, text] of CASES) {
  Deno.test(`chunks of an upload: ${name}`, async () => {
    for (const piece of [1, 2, 5, text.length]) {
      for (const chunkRows of [1, 2, 3, 1000]) {
        const { counted, stored } = cut(text, piece, chunkRows);
        const chunks = counted.chunks;
        await withFile(
          stored,
          (path) => checkChunks(path, counted.dialect, chunks),
        );
        ok(chunks.every((c) => c.rows >= chunkRows || c === chunks.at(-1)));
      }
    }
  });
}

Deno.test("a file with no data rows is one empty chunk", () => {
  assertEquals(cut("ip,n\n\n", 2, 10).counted.chunks, [
    { start: 0, end: 6, firstRow: 0, rows: 0 },
  ]);
});

Deno.test("random CSV text is refused or reads the same by chunks", async () => {
  // Random text of the bytes that matter to the scanner: the chunks must
  // give the whole file's records whatever the input, or the upload is
  // refused for its quoting.
  const pieces = ["a", "1", ",", '"', '""', "\n", "\r\n", "\r", " ", "é", ""];
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  let read = 0;
  for (let file = 0; file < 300; file++) {
    let text = "ip,n\n";
    const length = random(200);
    for (let i = 0; i < length; i++) text += pieces[random(pieces.length)];
    for (const [piece, chunkRows] of [[3, 1], [7, 4]]) {
      let upload;
      try {
        upload = cut(text, piece, chunkRows);
      } catch (error) {
        ok(/quote/.test(String(error)), String(error));
        continue;
      }
      read++;
      const { counted, stored } = upload;
      await withFile(stored, async (path) => {
        try {
          await checkChunks(path, counted.dialect, counted.chunks);
        } catch (error) {
          throw new Error(
            `${JSON.stringify(text)}: ${(error as Error).message}`,
          );
        }
      });
    }
  }
  ok(read > 50, `${read} files read`);
});

Deno.test("the upload reader notes chunks of the file it stores", async () => {
  // Larger than the reader's dialect sample and read buffers, so rows cross
  // the pieces; a byte order mark starts the upload.
  const lines = ["ip,note"];
  for (let i = 0; i < 30_000; i++) {
    lines.push(
      i % 7 === 0
        ? `10.0.${(i >> 8) & 255}.${i & 255},"line\r\nbreak, ""${i}"" é"`
        : `10.1.${(i >> 8) & 255}.${i & 255},${"ü".repeat(i % 13)}`,
    );
    if (i % 101 === 0) lines.push("");
  }
  const upload = encoder.encode("\uFEFF" + lines.join("\r\n"));
  const stored: Uint8Array[] = [];
  const reader = new CsvUploadReader((bytes) => stored.push(bytes), {}, 7777);
  for (let at = 0; at < upload.length; at += 1000) {
    reader.push(upload.subarray(at, at + 1000));
  }
  const counted = reader.end();
  assertEquals(counted.rowCount, 30_000);
  assertEquals(counted.dialect.bom, true);
  assertEquals(counted.dialect.newline, "\r\n");
  assertEquals(counted.chunks.length, 4);
  ok(counted.chunks.slice(0, -1).every((c) => c.rows >= 7777));
  await withFile(
    stored,
    (path) => checkChunks(path, counted.dialect, counted.chunks),
  );
});

Deno.test("a long upload's cuts are thinned to at most MAX_CUTS", () => {
  // 1,000 rows of 10 bytes, cuts every 4 rows and 300 at most.
  const chunker = new RowChunker(4, 300);
  for (let rows = 1; rows <= 1000; rows++) chunker.rowsThrough(rows * 10, rows);
  const chunks = chunker.end(10_000, 1000);
  ok(chunks.length <= 300 && chunks.length > 100, `${chunks.length} cuts`);
  ok(chunks.slice(0, -1).every((c) => c.rows >= 4), "cuts only grow");
  for (let i = 1; i < chunks.length; i++) {
    assertEquals(chunks[i].start, chunks[i - 1].end);
    assertEquals(
      chunks[i].firstRow,
      chunks[i - 1].firstRow + chunks[i - 1].rows,
    );
  }
});
