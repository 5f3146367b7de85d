// POST /api/upload with the files users have besides CSV: gzip, zip, TSV
// and xlsx are stored as CSV; a zip bomb is refused early and leaves no file.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { strToU8, zipSync } from "fflate";
import {
  downloadText,
  startJob,
  upload,
  waitForJob,
} from "../helpers/client.ts";
import { gzipText, zipBomb } from "../helpers/hostile_files.ts";
import { startServer } from "../helpers/server.ts";

const server = await startServer({ env: { MAX_UPLOAD_MB: "1" } });
const uploads = join(server.dataDir, "uploads");
const CSV = "ip,name\r\n81.2.69.142,a\r\n8.8.8.8,b\r\n";

async function stored(response: Response) {
  const body = await response.json();
  assertEquals(response.status, 201, JSON.stringify(body));
  match(body.fileName, /\.csv$/);
  const text = await Deno.readTextFile(join(uploads, body.fileName));
  return { body, text };
}

const uploadFiles = () => [...Deno.readDirSync(uploads)].map((e) => e.name);

Deno.test({
  name: "uploads in other formats",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step(
      ".csv.gz is stored decompressed and a job completes",
      async () => {
        const { body, text } = await stored(
          await upload(server, "visitors.csv.gz", await gzipText(CSV)),
        );
        assertEquals(text, CSV);
        assertEquals(body.headers, ["ip", "name"]);
        assertEquals(body.rowCount, 2);
        assertEquals(body.originalFileName, "visitors.csv.gz");
        const job = await waitForJob(
          server,
          (await startJob(server, body, "ip")).id,
        );
        assertEquals(job.status, "completed");
        assertEquals(job.processedIPs, 2);
      },
    );

    await t.step(".zip with one CSV beside a folder", async () => {
      const zip = zipSync({
        "export/": {},
        "export/visitors.csv": strToU8(CSV),
      });
      const { body, text } = await stored(
        await upload(server, "export.zip", zip),
      );
      assertEquals(text, CSV);
      assertEquals(body.sampleRows, [["81.2.69.142", "a"], ["8.8.8.8", "b"]]);
    });

    await t.step(
      ".tsv is stored as it came and comes back tab-separated",
      async () => {
        const tsv = 'ip\tnote\n8.8.8.8\t"quoted", with comma\n';
        const { body, text } = await stored(
          await upload(server, "log.tsv", tsv),
        );
        assertEquals(text, tsv);
        assertEquals(body.sampleRows, [["8.8.8.8", '"quoted", with comma']]);
        const job = await waitForJob(
          server,
          (await startJob(server, body, "ip")).id,
        );
        const [header, line] = (await downloadText(server, job.id)).split("\n");
        ok(header.startsWith("ip\tnote\tcountry\t"), header);
        ok(line.startsWith('8.8.8.8\t"quoted", with comma\tUnited States\t'));
      },
    );

    await t.step(".xlsx: the first sheet", async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet("Visitors");
      sheet.addRow(["Visitor IP", "Visits"]);
      sheet.addRow(["81.2.69.142", 3]);
      sheet.addRow(["8.8.8.8", 1]);
      workbook.addWorksheet("Other").addRow(["not", "read"]);
      const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
      const { body } = await stored(await upload(server, "book.xlsx", bytes));
      assertEquals(body.headers, ["Visitor IP", "Visits"]);
      assertEquals(body.sampleRows, [["81.2.69.142", "3"], ["8.8.8.8", "1"]]);
    });

    await t.step(
      "a zip bomb is refused early with 413, no file kept",
      async () => {
        const before = uploadFiles();
        const bomb = zipBomb(300); // 300 MB in some 300 KB; the limit is 50 MB
        ok(bomb.byteLength < 1024 * 1024, String(bomb.byteLength));
        const started = performance.now();
        const response = await upload(server, "bomb.zip", bomb);
        assertEquals(response.status, 413);
        match(
          (await response.json()).message,
          /^The file expands to more than 50 MB when decompressed;.*MAX_UNCOMPRESSED_MB/,
        );
        ok(performance.now() - started < 20_000);
        assertEquals(uploadFiles(), before, "the partial file is removed");
      },
    );

    await t.step("an unreadable archive is refused with 400", async () => {
      const before = uploadFiles();
      const damaged = new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7]);
      const response = await upload(server, "broken.csv.gz", damaged);
      assertEquals(response.status, 400);
      match((await response.json()).message, /not a valid/);
      const two = zipSync({ "a.csv": strToU8(CSV), "b.csv": strToU8(CSV) });
      const second = await upload(server, "two.zip", two);
      assertEquals(second.status, 400);
      await second.body?.cancel();
      assertEquals(uploadFiles(), before);
    });
  },
});

addEventListener("unload", () => server.stop());
