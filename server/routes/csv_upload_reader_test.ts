import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { CsvUploadReader, withExtraColumns } from "./csv_upload_reader.ts";

const MB = 1024 * 1024;

function read(chunks: Uint8Array[]) {
  const stored: Uint8Array[] = [];
  const reader = new CsvUploadReader(
    (bytes) => stored.push(bytes),
    {},
    Infinity,
    MB,
  );
  for (const chunk of chunks) reader.push(chunk);
  const counted = reader.end();
  const text = new TextDecoder().decode(
    new Uint8Array(stored.flatMap((b) => [...b])),
  );
  return { counted, text };
}

Deno.test("counts rows across chunk borders and widens the header", () => {
  const bytes = new TextEncoder().encode(
    "ip;name\n1.1.1.1;a;extra\n8.8.8.8;b\n",
  );
  const { counted, text } = read([bytes.slice(0, 11), bytes.slice(11)]);
  assertEquals(counted.dialect.delimiter, ";");
  assertEquals(counted.dialect.newline, "\n");
  assertEquals(counted.dialect.bom, false);
  assertEquals(counted.headerRow, ["ip", "name"]);
  assertEquals(counted.headers, ["ip", "name", "column_3"]);
  assertEquals(counted.rowCount, 2);
  assertEquals(counted.size, bytes.length);
  assertEquals(text, "ip;name\n1.1.1.1;a;extra\n8.8.8.8;b\n");
});

Deno.test("UTF-16 with a byte order mark is stored as UTF-8", () => {
  const source = "ip,city\n8.8.8.8,Zürich\n";
  const utf16 = new Uint8Array(2 + source.length * 2);
  utf16.set([0xff, 0xfe]);
  for (let i = 0; i < source.length; i++) {
    utf16[2 + i * 2] = source.charCodeAt(i);
    utf16[3 + i * 2] = source.charCodeAt(i) >> 8;
  }
  const { counted, text } = read([utf16]);
  assertEquals(text, source);
  assertEquals(counted.headers, ["ip", "city"]);
  assertEquals(counted.rowCount, 1);
});

Deno.test("an empty upload has no header row", () => {
  const { counted } = read([]);
  assertEquals(counted.headerRow, []);
  assertEquals(counted.rowCount, 0);
});

Deno.test("withExtraColumns names cells past the header", () => {
  assertEquals(withExtraColumns(["a"], 3), ["a", "column_2", "column_3"]);
  assertEquals(withExtraColumns(["a", "b"], 1), ["a", "b"]);
});

/** Pushes `text` in 64 KiB pieces, as uploads arrive; the reader's error. */
function refusal(text: string, maxRowBytes = MB): Error | null {
  const reader = new CsvUploadReader(
    () => {},
    {},
    Infinity,
    maxRowBytes,
  );
  const bytes = new TextEncoder().encode(text);
  try {
    for (let at = 0; at < bytes.length; at += 64 * 1024) {
      reader.push(bytes.subarray(at, at + 64 * 1024));
    }
    reader.end();
  } catch (error) {
    return error as Error;
  }
  return null;
}

Deno.test("a row over MAX_ROW_BYTES is refused, naming its line", () => {
  const head = "ip,note\n8.8.8.8,a\n\n\n";
  // A 2 MB quoted cell; an unclosed quote; a row finished in the read
  // that takes it past the limit; a 900 KB row, under it.
  match(
    String(refusal(`${head}1.1.1.1,"${"x".repeat(2 * MB)}"\n9.9.9.9,b\n`)),
    /^UploadFormatError: The row that starts on line 5 is longer than 1 MB \(MAX_ROW_BYTES\)\. If a cell opens a quote/,
  );
  match(
    String(refusal(`${head}1.1.1.1,"open\n${"8.8.8.8,b\n".repeat(MB / 8)}`)),
    /line 5 is longer than 1 MB/,
  );
  // Unfinished it is under the limit, until the read that ends it.
  const justOver = MB - 1000;
  match(
    String(
      refusal(`${head}1.1.1.1,${"x".repeat(justOver)}${"y".repeat(2000)}\n`),
    ),
    /line 5 is longer/,
  );
  assertEquals(refusal(`${head}1.1.1.1,${"x".repeat(900 * 1024)}\n`), null);
  match(
    String(
      refusal(`ip\r\n${"8.8.8.8\r\n".repeat(70_000)}${"x".repeat(MB + 1)}`),
    ),
    /line 70,002 is longer/,
  );
  match(
    String(refusal("ip,n\n1," + "x".repeat(300_000), 256 * 1024)),
    /0\.3 MB/,
  );
});

Deno.test("the row limit passes rows that are only many", () => {
  const rows = "8.8.8.8,a\n".repeat(300_000); // 3 MB in short rows
  assertEquals(refusal(`ip,n\n${rows}`), null);
  match(String(refusal(`ip\n"${"x".repeat(2 * MB)}`)), /line 2 is longer/);
});

Deno.test("malformed quoting is refused, naming its line", () => {
  match(
    String(refusal('ip,n\n8.8.8.8,1\n""""8.8.8.8"""",4\n1.1.1.1,2\n')),
    /^UploadFormatError: Line 3 has a quote \("\) in the middle of a quoted cell/,
  );
  match(
    String(refusal('ip,n\r\n8.8.8.8,"a\r\nb"x\r\n')),
    /Line 3 has a quote/,
  );
  match(
    String(refusal('ip,n\n8.8.8.8,1\n\n1.1.1.1,"open\n2.2.2.2,3\n')),
    /^UploadFormatError: A quote \("\) opened on line 4 never closes/,
  );
  // Doubled quotes inside a quoted cell, and a quote inside an unquoted one.
  assertEquals(refusal('ip,n\n"8.8.8.8","say ""hi"""\n1.1.1.1,a"b\n'), null);
});

Deno.test("a semicolon file with a byte order mark: its dialect, BOM not stored", () => {
  const bytes = new TextEncoder().encode(
    "\uFEFFip;city\r\n8.8.8.8;Zürich\r\n",
  );
  const { counted, text } = read([bytes.slice(0, 2), bytes.slice(2)]);
  assertEquals(counted.dialect.delimiter, ";");
  assertEquals(counted.dialect.newline, "\r\n");
  assertEquals(counted.dialect.bom, true);
  assertEquals(counted.dialect.headerCells, 2);
  assertEquals(counted.headers, ["ip", "city"]);
  assertEquals(text, "ip;city\r\n8.8.8.8;Zürich\r\n");
});
