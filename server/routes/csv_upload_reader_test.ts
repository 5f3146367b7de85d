import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { CsvUploadReader, withExtraColumns } from "./csv_upload_reader.ts";

function read(chunks: Uint8Array[]) {
  const stored: Uint8Array[] = [];
  const reader = new CsvUploadReader((bytes) => stored.push(bytes));
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
  assertEquals(counted.delimiter, ";");
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
