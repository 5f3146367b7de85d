import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { readCsvRange } from "./csv_range.ts";
import { readCsvBatches } from "./csv_rows.ts";
import { guessNewline, planRowRanges } from "./row_starts.ts";

/** The data rows as the whole-file reader yields them (header dropped). */
async function wholeFileRows(path: string, delimiter: string) {
  const rows: string[][] = [];
  for await (const batch of readCsvBatches(path, delimiter)) {
    rows.push(...batch);
  }
  return rows.slice(1);
}

/**
 * Cuts the file into ranges of `size` rows, checks that they follow one
 * another and that reading them gives the whole file's rows, in order.
 */
async function checkRanges(
  path: string,
  delimiter: string,
  size: number,
): Promise<number> {
  const expected = await wholeFileRows(path, delimiter);
  const ranges = await planRowRanges(path, delimiter, size);
  const got: string[][] = [];
  let nextRow = 0;
  for (const [i, range] of ranges.entries()) {
    assertEquals(range.firstRow, nextRow, `range ${i} starts where one ended`);
    if (i > 0) assertEquals(range.start, ranges[i - 1].end);
    ok(range.rows <= size && (range.rows === size || i === ranges.length - 1));
    const rows: string[][] = [];
    for await (const batch of readCsvRange(path, delimiter, range)) {
      rows.push(...batch);
    }
    assertEquals(rows.length, range.rows, `rows read from range ${i}`);
    got.push(...rows);
    nextRow += range.rows;
  }
  assertEquals(got, expected);
  assertEquals(ranges.at(-1)!.end, (await Deno.stat(path)).size);
  return ranges.length;
}

async function withFile(
  text: string | Uint8Array,
  run: (path: string) => Promise<void>,
) {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "upload.csv");
  if (typeof text === "string") await Deno.writeTextFile(path, text);
  else await Deno.writeFile(path, text);
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
    "byte order mark and non-ASCII text",
    ",",
    "\uFEFFip,n\n1.1.1.1,é\u{1F600}\n\uFEFF2.2.2.2,ü\n",
  ],
  ["header only", ",", "ip,n\n"],
  ["smaller than one range", ",", "ip\n1.1.1.1\n"],
];

for (const [name, delimiter, text] of CASES) {
  Deno.test(`planRowRanges: ${name}`, async () => {
    await withFile(text, async (path) => {
      for (const size of [1, 2, 3, 1000]) {
        await checkRanges(path, delimiter, size);
      }
    });
  });
}

Deno.test("planRowRanges: a file with no data rows has one empty range", async () => {
  await withFile("ip,n\n\n", async (path) => {
    const ranges = await planRowRanges(path, ",", 10);
    assertEquals(ranges, [{ start: 5, end: 6, firstRow: 0, rows: 0 }]);
  });
});

Deno.test("planRowRanges: ranges of a large file with quoted line ends", async () => {
  // Larger than the readers' buffers, so rows cross their reads.
  const lines = ["ip,note"];
  for (let i = 0; i < 30_000; i++) {
    lines.push(
      i % 7 === 0
        ? `10.0.${(i >> 8) & 255}.${i & 255},"line\r\nbreak, ""${i}"""`
        : `10.1.${(i >> 8) & 255}.${i & 255},${"x".repeat(i % 13)}`,
    );
    if (i % 101 === 0) lines.push("");
  }
  await withFile(lines.join("\r\n"), async (path) => {
    assertEquals(await checkRanges(path, ",", 1000), 30);
    assertEquals(await checkRanges(path, ",", 7_777), 4);
  });
});

Deno.test("planRowRanges: random CSV text reads the same by ranges", async () => {
  // Random text of the characters that matter to the parser: the ranges
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
      for (const size of [1, 4]) {
        try {
          await checkRanges(path, ",", size);
        } catch (error) {
          throw new Error(
            `${JSON.stringify(text)}: ${(error as Error).message}`,
          );
        }
      }
    });
  }
});

Deno.test("guessNewline follows papaparse's guess", () => {
  assertEquals(guessNewline("a\nb\n"), "\n");
  assertEquals(guessNewline("a\r\nb\r\n"), "\r\n");
  assertEquals(guessNewline("a\rb\r"), "\r");
  assertEquals(guessNewline('"x\r\ny"\nb\n'), "\n");
});
