// The download keeps each original line as it was uploaded (bytes, quoting,
// delimiter, line end, the byte order mark) and appends the new cells in the
// file's own dialect, over real HTTP (in PostgreSQL mode too, with
// TEST_DATABASE=postgres).
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
// @ts-types="npm:@types/papaparse@^5.3"
import Papa from "papaparse";
import {
  getJson,
  startJob,
  upload,
  uploadOk,
  waitForJob,
} from "../helpers/client.ts";
import { sessionFetch } from "../helpers/cookie_jar.ts";
import { startServer } from "../helpers/server.ts";

const server = await startServer();

const decoder = new TextDecoder();

let lastJob = 0;

async function enrichedBytes(name: string, content: Uint8Array | string) {
  const uploaded = await uploadOk(server, name, content as string);
  const job = await startJob(server, uploaded, "ip");
  assertEquals((await waitForJob(server, job.id)).status, "completed");
  lastJob = job.id;
  const response = await sessionFetch(
    `${server.url}/api/jobs/${job.id}/download`,
  );
  assertEquals(response.status, 200);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Checks that `download` is the header line then each line of `lines`, in
 * order, each as uploaded, padded with `pads[i]` delimiters, then the new
 * cells (as many as the header's new names) and `newline`; returns the new
 * cells of each line.
 */
function checkLines(
  download: string,
  header: string,
  lines: string[],
  pads: number[],
  delimiter: string,
  newline: string,
): Record<string, string>[] {
  ok(download.startsWith(header + delimiter), download.slice(0, 200));
  let at = download.indexOf(newline) + newline.length;
  const names = Papa.parse<string[]>(
    download.slice(header.length + 1, at - newline.length),
    { delimiter },
  ).data[0];
  ok(names.includes("country") && names.at(-1) === "enrichment_error");
  const tails: Record<string, string>[] = [];
  for (const [i, line] of lines.entries()) {
    const start = line + delimiter.repeat(pads[i]) + delimiter;
    assertEquals(download.slice(at, at + start.length), start, `line ${i}`);
    at += start.length;
    const end = download.indexOf(newline, at);
    const cells = Papa.parse<string[]>(download.slice(at, end), { delimiter })
      .data[0];
    assertEquals(cells.length, names.length, `new cells of line ${i}`);
    tails.push(Object.fromEntries(names.map((name, k) => [name, cells[k]])));
    at = end + newline.length;
  }
  assertEquals(at, download.length);
  return tails;
}

Deno.test({
  name: "the download keeps every original line as uploaded",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step(
      "semicolons, a byte order mark and CRLF, as Excel writes them",
      async () => {
        const header = "ip;name;note";
        const lines = [
          '8.8.8.8;Zoë;"a;b"',
          "1.1.1.1;Ærø", // a short row
          '"9.9.9.9";"x";"multi\r\nline ""q"""',
          "10.0.0.1;;",
        ];
        const text = `\uFEFF${header}\r\n${lines.join("\r\n")}\r\n`;
        const bytes = await enrichedBytes("excel.csv", text);
        assertEquals([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
        const download = decoder.decode(bytes.subarray(3));
        const tails = checkLines(
          download,
          header,
          lines,
          [0, 1, 0, 0],
          ";",
          "\r\n",
        );
        assertEquals(tails[0].country_code, "US");
        assertEquals(tails[2].country_code, "US");
        assertEquals(tails[3].enrichment_success, "false");
        // The live rows read each line's cells in the file's dialect.
        const { body } = await getJson<{
          results: { originalData: Record<string, string> }[];
        }>(server, `/api/jobs/${lastJob}/recent-results?since=0&limit=10`);
        assertEquals(body.results.map((r) => r.originalData), [
          { ip: "8.8.8.8", name: "Zoë", note: "a;b" },
          { ip: "1.1.1.1", name: "Ærø", note: "" },
          { ip: "9.9.9.9", name: "x", note: 'multi\r\nline "q"' },
          { ip: "10.0.0.1", name: "", note: "" },
        ]);
      },
    );

    await t.step(
      "an all-quoted LF file comes back quoted, with LF",
      async () => {
        const header = '"ip","name"';
        const lines = ['"8.8.8.8","a"', '"1.1.1.1","b, c"'];
        const download = decoder.decode(
          await enrichedBytes("quoted.csv", `${header}\n${lines.join("\n")}\n`),
        );
        ok(!download.includes("\r"), "no CR");
        checkLines(download, header, lines, [0, 0], ",", "\n");
      },
    );

    await t.step("short rows are padded to the header's width", async () => {
      const header = "ip,a,b";
      const lines = ["8.8.8.8", "1.1.1.1,x", "9.9.9.9,x,y"];
      const download = decoder.decode(
        await enrichedBytes("short.csv", `${header}\n${lines.join("\n")}`),
      );
      // The last line had no line end: it gets the file's.
      checkLines(download, header, lines, [2, 1, 0], ",", "\n");
    });

    await t.step("malformed quoting is refused, naming the line", async () => {
      const response = await upload(
        server,
        "broken.csv",
        'ip,n\n8.8.8.8,1\n""""8.8.8.8"""",4\n1.1.1.1,2\n',
      );
      assertEquals(response.status, 400);
      match(
        (await response.json()).message,
        /^Line 3 has a quote \("\) in the middle of a quoted cell/,
      );
    });
  },
});

addEventListener("unload", () => server.stop());
