import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { CsvUploadReader } from "../routes/csv_upload_reader.ts";
import { readCsvRange } from "./csv_range.ts";
import { createChunkParser, readCsvBatches } from "./csv_rows.ts";
import { type RowChunk, RowChunker } from "./row_chunks.ts";

const encoder = new TextEncoder();

/** The data rows as the whole-file reader yields them (header dropped). */
async function wholeFileRows(path: string, delimiter: string) {
  const rows: string[][] = [];
  for await (const batch of readCsvBatches(path, delimiter)) {
    rows.push(...batch);
  }
  return rows.slice(1);
}

/**
 * Checks that the chunks follow one another over the whole file and that
 * reading them gives the whole file's rows, in order.
 */
async function checkChunks(
  path: string,
  delimiter: string,
  chunks: RowChunk[],
): Promise<void> {
  const expected = await wholeFileRows(path, delimiter);
  const got: string[][] = [];
  assertEquals(chunks[0].start, 0);
  for (const [i, chunk] of chunks.entries()) {
    assertEquals(chunk.firstRow, got.length, `chunk ${i} starts in order`);
    if (i > 0) assertEquals(chunk.start, chunks[i - 1].end);
    const rows: string[][] = [];
    for await (const batch of readCsvRange(path, delimiter, chunk)) {
      rows.push(...batch);
    }
    // The first chunk holds the header row.
    if (i === 0) rows.shift();
    assertEquals(rows.length, chunk.rows, `rows read from chunk ${i}`);
    got.push(...rows);
  }
  assertEquals(got, expected);
  assertEquals(chunks.at(-1)!.end, (await Deno.stat(path)).size);
}

/**
 * Cuts `text` as the upload reader does, fed in pieces of `piece`
 * characters, with the line end the whole text gives (the reader guesses it
 * from its first 64 KiB, as the job's reader of the file does).
 */
function cut(
  text: string,
  delimiter: string,
  piece: number,
  chunkRows: number,
  maxChunks = Infinity,
): RowChunk[] {
  const guess = createChunkParser(delimiter);
  guess.push(text);
  const parser = createChunkParser(delimiter, guess.newline);
  const chunker = new RowChunker(chunkRows, maxChunks);
  let rows = -1; // the header is not a data row
  // Whole characters, as a decoder hands them over.
  const characters = [...text];
  for (let at = 0; at < characters.length; at += piece) {
    const part = characters.slice(at, at + piece).join("");
    chunker.text(part, encoder.encode(part).length);
    rows += parser.push(part).length;
    chunker.rowsThrough(parser.cursor, Math.max(rows, 0));
  }
  rows += parser.end().length;
  chunker.rowsThrough(parser.cursor, Math.max(rows, 0));
  return chunker.end(Math.max(rows, 0));
}

async function withFile(text: string, run: (path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "upload.csv");
  await Deno.writeTextFile(path, text);
  try {
    await run(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const CASES: [string, string, string][] = [
  ["plain, ends with newline", ",", "ip,n\n1.1.1.1,1\n2.2.2.2,2\n3.3.3.3,3\n"],
  ["no final newline", ",", "ip,n\n1.1.1.1,1\n2.2.2.2,2\n3.3.3.3,3"],
  [
    "quoted newlines, CRLF, escaped quotes",
    ",",
    'ip,note\r\n1.1.1.1,"a\r\nb"\r\n2.2.2.2,"say ""hi""\nthere"\r\n' +
    '"3.3.3.3","x,y"\r\n4.4.4.4,\r\n',
  ],
  [
    "empty lines and a quoted empty row are skipped",
    ",",
    '\n\nip,n\n\n1.1.1.1,1\n\n""\n2.2.2.2,2\n\n\n3.3.3.3,3\n\n',
  ],
  [
    "bare LF inside a CRLF file is text",
    ",",
    "ip,n\r\n1.1\n1.1,a\r\n2.2.2.2,b\r\n",
  ],
  ["CR line ends", ";", "ip;n\r1.1.1.1;1\r2.2.2.2;2\r"],
  [
    "tab delimiter, spaces after a closing quote",
    "\t",
    'ip\tn\n"1.1.1.1"  \tx\n"2.2.2.2" \n"3"x"\n4"\n',
  ],
  [
    "unterminated quote runs to the end",
    ",",
    'ip,n\n1.1.1.1,1\n2.2.2.2,"open\n3.3.3.3,3\n',
  ],
  [
    "non-ASCII text and a byte order mark inside",
    ",",
    "ip,n\n1.1.1.1,é\u{1F600}\n\uFEFF2.2.2.2,ü\n3.3.3.3,ß\n",
  ],
  ["header only", ",", "ip,n\n"],
  ["smaller than one chunk", ",", "ip\n1.1.1.1\n"],
];

for (const [name, delimiter, text] of CASES) {
  Deno.test(`chunks of an upload: ${name}`, async () => {
    await withFile(text, async (path) => {
      for (const piece of [1, 2, 5, text.length]) {
        for (const chunkRows of [1, 2, 3, 1000]) {
          const chunks = cut(text, delimiter, piece, chunkRows);
          await checkChunks(path, delimiter, chunks);
          ok(chunks.every((c) => c.rows >= chunkRows || c === chunks.at(-1)));
        }
      }
    });
  });
}

Deno.test("a file with no data rows is one empty chunk", () => {
  assertEquals(cut("ip,n\n\n", ",", 2, 10), [
    { start: 0, end: 6, firstRow: 0, rows: 0 },
  ]);
});

Deno.test("random CSV text reads the same by chunks", async () => {
  // Random text of the characters that matter to the parser: the chunks
  // must give papaparse's rows whatever the input.
  const pieces = ["a", "1", ",", '"', '""', "\n", "\r\n", "\r", " ", "é", ""];
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  for (let file = 0; file < 300; file++) {
    let text = "ip,n\n";
    const length = random(200);
    for (let i = 0; i < length; i++) text += pieces[random(pieces.length)];
    await withFile(text, async (path) => {
      for (const [piece, chunkRows] of [[3, 1], [7, 4]]) {
        try {
          await checkChunks(path, ",", cut(text, ",", piece, chunkRows));
        } catch (error) {
          throw new Error(
            `${JSON.stringify(text)}: ${(error as Error).message}`,
          );
        }
      }
    });
  }
});

Deno.test("the upload reader notes chunks of the file it stores", async () => {
  // Larger than the reader's delimiter sample and read buffers, so rows
  // cross the pieces; multi-byte characters make bytes differ from
  // characters; a byte order mark starts the upload.
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
  const reader = new CsvUploadReader((bytes) => stored.push(bytes), ",", 7777);
  for (let at = 0; at < upload.length; at += 1000) {
    reader.push(upload.subarray(at, at + 1000));
  }
  const counted = reader.end();
  assertEquals(counted.rowCount, 30_000);
  assertEquals(counted.chunks.length, 4);
  ok(counted.chunks.slice(0, -1).every((c) => c.rows >= 7777));
  const dir = await Deno.makeTempDir();
  const path = join(dir, "upload.csv");
  try {
    const file = await Deno.open(path, { write: true, create: true });
    for (const bytes of stored) await file.write(bytes);
    file.close();
    await checkChunks(path, ",", counted.chunks);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a long upload's cuts are thinned to at most MAX_CUTS", async () => {
  // 1,000 rows, cuts every 4 rows and 300 at most: thinned twice.
  const lines = ["ip"];
  for (let i = 0; i < 1000; i++) lines.push(`10.0.${i >> 8}.${i & 255}`);
  const text = lines.join("\n") + "\n";
  const chunks = cut(text, ",", 12, 4, 300);
  ok(chunks.length <= 300 && chunks.length > 100, `${chunks.length} cuts`);
  ok(chunks.slice(0, -1).every((c) => c.rows >= 4), "cuts only grow");
  await withFile(text, (path) => checkChunks(path, ",", chunks));
});
