import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import ExcelJS from "exceljs";
import { strToU8, zipSync } from "fflate";
import {
  decodeUpload,
  detectUploadFormat,
  peekHead,
  type UploadFormat,
} from "./formats.ts";
import { READ_CHUNK } from "./bounded_chunks.ts";
import { maxUncompressedMb, MB, UploadFormatError } from "./limits.ts";
import { SharedStrings } from "./xlsx_parts.ts";
import {
  gzipText,
  repeatedLinesGzip,
  sharedStringsXlsx,
  zipBomb,
} from "../../tests/helpers/hostile_files.ts";

const CSV = "ip,name\r\n81.2.69.142,a\r\n8.8.8.8,b\r\n";

/** A stream of `bytes` in chunks, counting what its reader pulled. */
function counted(bytes: Uint8Array, chunk = 16 * 1024) {
  const stats = { read: 0 };
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      const piece = bytes.slice(at, at + chunk);
      at += piece.byteLength;
      stats.read += piece.byteLength;
      controller.enqueue(piece);
    },
  }, { highWaterMark: 0 });
  return { stream, stats };
}

/** `mb` MB of one byte over and over as a gzip, about 1,000 times smaller. */
const gzipBomb = (mb: number) =>
  repeatedLinesGzip(`${"1".repeat(MB - 1)}\n`, mb);

const limits = (maxUncompressedBytes: number, maxRowBytes = MB) => ({
  maxUncompressedBytes,
  maxRowBytes,
});

/** Detects and decodes as the upload handler would; returns the text. */
async function decode(name: string, bytes: Uint8Array, limit = 10 * MB) {
  const { head, stream } = await peekHead(counted(bytes).stream);
  const format = detectUploadFormat(name, head) as UploadFormat;
  const decoded = decodeUpload(format, stream, limits(limit));
  return {
    format,
    fixed: decoded.fixed,
    text: await new Response(decoded.bytes).text(),
  };
}

async function refusal(
  format: UploadFormat,
  bytes: Uint8Array,
  limit: number,
) {
  const { stream, stats } = counted(bytes);
  const decoded = decodeUpload(format, stream, limits(limit));
  let error: unknown = null;
  await new Response(decoded.bytes).arrayBuffer().catch((e) => error = e);
  ok(error instanceof UploadFormatError, String(error));
  return { message: (error as Error).message, read: stats.read };
}

Deno.test(".csv.gz decodes while streaming", async () => {
  const result = await decode("visitors.csv.gz", await gzipText(CSV));
  assertEquals(result, { format: "gzip", fixed: undefined, text: CSV });
});

Deno.test("a gzip bomb is refused after the limit, not after the file", async () => {
  const bomb = await gzipBomb(512); // 512 MB in about half a MB
  ok(bomb.byteLength < MB, `${bomb.byteLength}`);
  const { message, read } = await refusal("gzip", bomb, 1 * MB);
  match(message, /^The file expands to more than 1 MB when decompressed;/);
  ok(read < bomb.byteLength / 4, `read ${read} of ${bomb.byteLength}`);
});

Deno.test("what a file expands to comes in small chunks, every format", async () => {
  // Deflate at 1000:1: one read of the compressed file once became 64 MiB.
  const files: [UploadFormat, Uint8Array][] = [
    ["gzip", await gzipBomb(16)],
    ["zip", zipBomb(16)],
    ["csv", new Uint8Array(4 * MB).fill(10)],
  ];
  for (const [format, bytes] of files) {
    const decoded = decodeUpload(
      format,
      counted(bytes, MB).stream,
      limits(100 * MB),
    );
    let largest = 0;
    let total = 0;
    for await (const chunk of decoded.bytes) {
      largest = Math.max(largest, chunk.byteLength);
      total += chunk.byteLength;
    }
    ok(total >= 4 * MB, `${format}: ${total}`);
    ok(largest <= READ_CHUNK, `${format}: a chunk of ${largest} bytes`);
  }
});

Deno.test("a damaged gzip file says so", async () => {
  const good = await gzipText(CSV.repeat(50));
  const damaged = good.slice(0, good.byteLength / 2);
  const { message } = await refusal("gzip", damaged, MB);
  match(message, /not a valid gzip file/);
});

Deno.test(".zip with one CSV inside, beside folders and metadata", async () => {
  const zip = zipSync({
    "export/": {},
    "__MACOSX/export/._visitors.csv": strToU8("junk"),
    "export/visitors.csv": strToU8(CSV),
    "export/readme.md": strToU8("# notes"),
  });
  assertEquals(await decode("export.zip", zip), {
    format: "zip",
    fixed: undefined,
    text: CSV,
  });
});

Deno.test("a zip bomb is refused early, without reading it all", async () => {
  const bomb = zipBomb(256); // 256 MB in about a quarter of a MB
  ok(bomb.byteLength < MB, `${bomb.byteLength}`);
  const { message, read } = await refusal("zip", bomb, 2 * MB);
  match(message, /^The file expands to more than 2 MB when decompressed;/);
  ok(read < bomb.byteLength / 10, `read ${read} of ${bomb.byteLength}`);
});

Deno.test("a zip with two CSV files or none is refused", async () => {
  const two = zipSync({ "a.csv": strToU8(CSV), "b.csv": strToU8(CSV) });
  match(
    (await refusal("zip", two, MB)).message,
    /holds more than one CSV file \(a\.csv, b\.csv\)/,
  );
  const none = zipSync({ "photo.jpg": strToU8("not a table") });
  match(
    (await refusal("zip", none, MB)).message,
    /holds no CSV file \(found photo\.jpg\)/,
  );
  match(
    (await refusal("zip", strToU8("PK\x03\x04 not really"), MB)).message,
    /zip/,
  );
});

Deno.test(".tsv is kept as it is: tab-separated, with no quoting", async () => {
  const tsv = 'ip\tname\r\n81.2.69.142\t"a", b\n8.8.8.8\tc';
  assertEquals(await decode("log.tsv", strToU8(tsv)), {
    format: "tsv",
    fixed: { delimiter: "\t", quote: "" },
    text: tsv,
  });
});

Deno.test(".xlsx: the first sheet as CSV, values as text", async () => {
  const workbook = new ExcelJS.Workbook();
  const first = workbook.addWorksheet("Visitors");
  first.addRow(["ip", "visits", "seen", "note"]);
  first.addRow(["81.2.69.142", 3, new Date("2025-01-02T03:04:05Z"), "a, b"]);
  first.addRow([
    "8.8.8.8",
    { formula: "1+1", result: 2 },
    null,
    { richText: [{ text: "bold" }, { text: " text" }] },
  ]);
  first.addRow([
    "2001:db8::1",
    true,
    new Date("2024-02-29T00:00:00Z"),
    "plain",
  ]);
  // A later sheet is not read.
  workbook.addWorksheet("Other").addRow(["not", "this"]);
  const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
  assertEquals(await decode("book.xlsx", bytes), {
    format: "xlsx",
    fixed: { delimiter: ",", quote: '"' },
    text: "ip,visits,seen,note\r\n" +
      '81.2.69.142,3,2025-01-02T03:04:05,"a, b"\r\n' +
      "8.8.8.8,2,,bold text\r\n" +
      "2001:db8::1,TRUE,2024-02-29,plain\r\n",
  });
});

Deno.test(".xlsx output counts against the decompressed limit", async () => {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Big");
  for (let i = 0; i < 5000; i++) {
    sheet.addRow([`10.0.${i >> 8}.${i & 255}`, "x".repeat(100)]);
  }
  const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
  const { message } = await refusal("xlsx", bytes, 100 * 1024);
  match(message, /^The file expands to more than 0.1 MB when decompressed;/);
});

Deno.test(".xlsx: millions of shared strings are kept packed", async () => {
  const strings = new SharedStrings();
  for (let i = 0; i < 10_000; i++) strings.add(`s${i}`);
  assertEquals(
    [0, 4095, 4096, 9999].map((i) => strings.get(i)),
    ["s0", "s4095", "s4096", "s9999"],
  );
  assertEquals([10_000, -1, 1.5, NaN].map((i) => strings.get(i)), [
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
  // The sheet's two cells among 200,000 strings (the HTTP test has 4.5M).
  const { text } = await decode("many.xlsx", sharedStringsXlsx(200_000));
  assertEquals(text, "ip\r\n8.8.8.8\r\n");
});

Deno.test(".xlsx: a cell past column XFD is refused", async () => {
  const sheet = (ref: string) =>
    zipSync({
      "xl/worksheets/sheet1.xml": strToU8(
        `<worksheet><sheetData><row><c r="${ref}" t="inlineStr"><is><t>x` +
          "</t></is></c></row></sheetData></worksheet>",
      ),
    });
  assertEquals((await decode("ok.xlsx", sheet("XFD1"))).text.length, 16_386);
  match(
    (await refusal("xlsx", sheet("ZZZZZZZ1"), MB)).message,
    /beyond column XFD, the last of the 16,384 columns/,
  );
});

Deno.test(".xlsx: a row over MAX_ROW_BYTES is refused before it is made", async () => {
  // One 300,000-character string in four cells: 1.2 MB of row.
  const book = zipSync({
    "xl/sharedStrings.xml": strToU8(
      `<sst><si><t>ip</t></si><si><t>${"x".repeat(300_000)}</t></si></sst>`,
    ),
    "xl/worksheets/sheet1.xml": strToU8(
      '<worksheet><sheetData><row r="1"><c t="s"><v>0</v></c></row>' +
        '<row r="7">' + '<c t="s"><v>1</v></c>'.repeat(4) +
        "</row></sheetData></worksheet>",
    ),
  });
  match(
    (await refusal("xlsx", book, 10 * MB)).message,
    /^Row 7 of the sheet is longer than 1 MB \(MAX_ROW_BYTES\)/,
  );
});

Deno.test("formats by first bytes, then by name", () => {
  const gz = new Uint8Array([0x1f, 0x8b, 8, 0]);
  const pk = strToU8("PK\x03\x04");
  const text = strToU8("ip\n");
  assertEquals(detectUploadFormat("a.csv.gz", gz), "gzip");
  assertEquals(detectUploadFormat("a.csv", gz), "gzip");
  assertEquals(detectUploadFormat("a.zip", pk), "zip");
  assertEquals(detectUploadFormat("A.XLSX", pk), "xlsx");
  assertEquals(detectUploadFormat("a.tsv", text), "tsv");
  assertEquals(detectUploadFormat("a.txt", text), "csv");
  assertEquals(detectUploadFormat("a.zip", text), null);
  assertEquals(detectUploadFormat("a.pdf", text), null);
});

Deno.test("MAX_UNCOMPRESSED_MB defaults to 50x the upload limit", () => {
  assertEquals(maxUncompressedMb({}, 10), 500);
  assertEquals(maxUncompressedMb({ MAX_UNCOMPRESSED_MB: "" }, 2), 100);
  assertEquals(maxUncompressedMb({ MAX_UNCOMPRESSED_MB: "75" }, 10), 75);
  let error: unknown;
  try {
    maxUncompressedMb({ MAX_UNCOMPRESSED_MB: "lots" }, 10);
  } catch (e) {
    error = e;
  }
  match(String(error), /MAX_UNCOMPRESSED_MB must be a number/);
});

Deno.test("xlsx cell helpers: columns, serial dates, date formats", async () => {
  const { columnIndex, serialToIso } = await import("./xlsx.ts");
  const { isDateFormat } = await import("./xlsx_parts.ts");
  assertEquals([columnIndex("A1"), columnIndex("Z9"), columnIndex("BC12")], [
    0,
    25,
    54,
  ]);
  assertEquals(serialToIso(45659, false), "2025-01-02");
  assertEquals(serialToIso(45659.5, false), "2025-01-02T12:00:00");
  assertEquals(serialToIso(0, true), "1904-01-01");
  assertEquals(
    ["yyyy-mm-dd", "h:mm AM/PM", '0.00" days"', "#,##0", "[Red]0.0"].map(
      isDateFormat,
    ),
    [true, true, false, false, false],
  );
});
