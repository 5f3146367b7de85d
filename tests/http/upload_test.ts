// POST /api/upload over real HTTP.
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { join } from "node:path";
import { upload } from "../helpers/client.ts";
import { startServer } from "../helpers/server.ts";
import { sessionFetch } from "../helpers/cookie_jar.ts";

const server = await startServer({ env: { MAX_UPLOAD_MB: "1" } });

Deno.test({
  name: "upload",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step("stores the file under a server-made name", async () => {
      const csv =
        'ip,client,note\n8.8.8.8,1,"a, b"\n\n1.1.1.1,2,"multi\nline"\n';
      const response = await upload(server, "../../Visitors.CSV", csv);
      assertEquals(response.status, 201);
      const body = await response.json();
      match(body.fileName, /^[0-9a-f-]{36}\.csv$/);
      assertEquals(body.originalFileName, "Visitors.CSV");
      assertEquals(body.headers, ["ip", "client", "note"]);
      assertEquals(body.rowCount, 2);
      assertEquals(body.sampleRows, [
        ["8.8.8.8", "1", "a, b"],
        ["1.1.1.1", "2", "multi\nline"],
      ]);
      assertEquals(body.size, new TextEncoder().encode(csv).length);
      const stored = await Deno.readTextFile(
        join(server.dataDir, "uploads", body.fileName),
      );
      assertEquals(stored, csv);
    });

    await t.step(
      "reads semicolon files and drops a byte order mark",
      async () => {
        const response = await upload(
          server,
          "semi.csv",
          "\uFEFFip;name\n8.8.8.8;x\n",
        );
        const body = await response.json();
        assertEquals(body.headers, ["ip", "name"]);
        assertEquals(body.rowCount, 1);
      },
    );

    await t.step("stores UTF-16 text as UTF-8", async () => {
      const text = "ip,city\n8.8.8.8,Zürich\n";
      const utf16 = new Uint8Array(2 + text.length * 2);
      utf16.set([0xff, 0xfe]);
      for (let i = 0; i < text.length; i++) {
        utf16[2 + i * 2] = text.charCodeAt(i) & 255;
        utf16[3 + i * 2] = text.charCodeAt(i) >> 8;
      }
      const response = await upload(server, "utf16.csv", utf16);
      const body = await response.json();
      assertEquals(body.headers, ["ip", "city"]);
      assertEquals(body.rowCount, 1);
      assertEquals(
        await Deno.readTextFile(join(server.dataDir, "uploads", body.fileName)),
        text,
      );
    });

    await t.step("refuses a file that is not a table", async () => {
      const response = await upload(server, "data.pdf", "ip\n1.1.1.1\n");
      assertEquals(response.status, 400);
      assertEquals(await response.json(), {
        message:
          "Please upload a CSV, TSV, Excel (.xlsx), or a .csv.gz/.zip of one CSV",
        title: "Invalid file format",
      });
    });

    await t.step("refuses a file over the limit while streaming", async () => {
      const big = "ip\n" + "8.8.8.8\n".repeat(200_000); // 1.6 MB
      const response = await upload(server, "big.csv", big);
      assertEquals(response.status, 413);
      assertEquals(
        (await response.json()).message,
        "Please upload a file smaller than 1MB",
      );
      const left = [...Deno.readDirSync(join(server.dataDir, "uploads"))]
        .filter((entry) =>
          Deno.statSync(
            join(server.dataDir, "uploads", entry.name),
          ).size > 1024 * 1024
        );
      assertEquals(left, [], "no partial file is left behind");
    });

    await t.step("refuses a file with no header row", async () => {
      for (const content of ["", "\n\n\n"]) {
        const response = await upload(server, "empty.csv", content);
        assertEquals(response.status, 400);
        assertEquals(
          (await response.json()).message,
          "Could not parse CSV headers",
        );
      }
    });

    await t.step("refuses a body that is not multipart", async () => {
      const response = await sessionFetch(`${server.url}/api/upload`, {
        method: "POST",
        headers: { "content-type": "text/csv" },
        body: "ip\n1.1.1.1\n",
      });
      assertEquals(response.status, 400);
      match((await response.json()).message, /multipart\/form-data/);
    });

    await t.step("the server keeps answering", async () => {
      const response = await sessionFetch(`${server.url}/api/config`);
      assertEquals((await response.json()).maxUploadMb, 1);
    });
  },
});

addEventListener("unload", () => server.stop());
