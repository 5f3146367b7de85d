import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import {
  detectDelimiter,
  formatCsvRows,
  neutraliseFormula,
  readCsvFile,
} from "./csv_rows.ts";

Deno.test("detectDelimiter", () => {
  assertEquals(detectDelimiter("ip,name\n1.1.1.1,a\n"), ",");
  assertEquals(detectDelimiter("ip;name\n1.1.1.1;a\n"), ";");
  assertEquals(detectDelimiter("ip\tname\n1.1.1.1\ta\n"), "\t");
  assertEquals(detectDelimiter("ip\n1.1.1.1\n"), ",");
});

Deno.test("readCsvFile streams rows: quotes, CRLF, BOM, empty lines", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "a.csv");
  await Deno.writeTextFile(
    path,
    '\uFEFFip,note\r\n1.1.1.1,"a, ""b"""\r\n\r\n8.8.8.8,"two\nlines"\r\n9.9.9.9\r\n',
  );
  const rows: string[][] = [];
  for await (const row of readCsvFile(path, ",")) rows.push(row);
  assertEquals(rows, [
    ["ip", "note"],
    ["1.1.1.1", 'a, "b"'],
    ["8.8.8.8", "two\nlines"],
    ["9.9.9.9"],
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("neutraliseFormula quotes what a spreadsheet would run", () => {
  for (const value of ["=1+1", "+1", "-cmd", "@SUM(A1)", "\t=x"]) {
    assertEquals(neutraliseFormula(value), `'${value}`);
  }
  assertEquals(neutraliseFormula("example.com"), "example.com");
});

Deno.test("formatCsvRows quotes where needed and ends lines with CRLF", () => {
  assertEquals(
    formatCsvRows([["a", "b, c", 'say "hi"', 1.5, null]]),
    'a,"b, c","say ""hi""",1.5,\r\n',
  );
  assertEquals(formatCsvRows([]), "");
});
