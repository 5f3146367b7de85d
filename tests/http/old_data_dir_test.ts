// A data directory written by an earlier version is migrated at start: its
// job is listed, its download is the bytes that version served, its preview
// shows the rows it showed, its .xlsx holds the cells that version's did
// (where the fixture has it), the summary answers, and a second
// start finds nothing left to do. The fixtures are real data directories,
// each with a job of 420 rows, its chunks stored a blob per section:
// data_dir_c7df1dc (rows kept as cells, comma-separated CRLF download) and
// data_dir_604f446 (rows kept as lines, distinct addresses; the upload
// semicolon-separated with a byte order mark and LF lines).
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { cpSync } from "node:fs";
import ExcelJS from "exceljs";
import { sessionFetch } from "../helpers/cookie_jar.ts";
import { startServer, usingPostgres } from "../helpers/server.ts";

// The fixtures are data directories of the embedded mode, their SQLite file
// included, so they have no PostgreSQL run; the migration's PostgreSQL and
// S3 paths are run by the store contract and part_migration_test.
for (const version of ["c7df1dc", "604f446"]) {
  Deno.test({
    name:
      `a data directory written by ${version} lists its jobs and serves them as it did`,
    ignore: usingPostgres,
    fn: () => serveOld(version),
  });
}

/** The cells of an .xlsx download's "Enriched" sheet, row by row. */
async function enrichedSheet(bytes: ArrayBuffer | Uint8Array) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.getWorksheet("Enriched")!.eachRow((row) =>
    rows.push(row.values as unknown[])
  );
  return rows;
}

async function serveOld(version: string) {
  const FIXTURE = new URL(
    `../fixtures/data_dir_${version}/`,
    import.meta.url,
  ).pathname;
  const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-old-" });
  for (const name of ["enrichment.db", "results", "uploads"]) {
    cpSync(join(FIXTURE, name), join(dataDir, name), { recursive: true });
  }
  const expected = await Deno.readFile(join(FIXTURE, "download.csv"));
  const shown = JSON.parse(
    await Deno.readTextFile(join(FIXTURE, "preview.json")),
  ).preview as Record<string, unknown>[];
  const kept = JSON.parse(
    await Deno.readTextFile(join(FIXTURE, "results/1/summary.json")),
  );
  const servedXlsx = await Deno.readFile(join(FIXTURE, "download.xlsx"))
    .catch(() => null);
  const env = { JOBS_VISIBILITY: "shared" };
  try {
    for (const start of [1, 2]) {
      const server = await startServer({ dataDir, env, keepDataDir: true });
      try {
        const get = (path: string) => sessionFetch(`${server.url}${path}`);
        const jobs = await (await get("/api/jobs")).json();
        assertEquals(
          jobs.map((j: { id: number; status: string }) => [j.id, j.status]),
          [[1, "completed"]],
        );
        const download = await get("/api/jobs/1/download");
        assertEquals(download.status, 200);
        assertEquals(new Uint8Array(await download.arrayBuffer()), expected);
        const preview = await (await get(
          "/api/jobs/1/preview?page=1&pageSize=50",
        )).json();
        assertEquals(preview.totalResults, 420);
        assertEquals(
          preview.preview.map((row: Record<string, unknown>) =>
            Object.fromEntries(Object.keys(shown[0]).map((k) => [k, row[k]]))
          ),
          shown,
        );
        const xlsx = await get("/api/jobs/1/download?format=xlsx");
        assertEquals(xlsx.status, 200);
        const sheet = await enrichedSheet(await xlsx.arrayBuffer());
        ok(sheet.length > 300);
        if (servedXlsx) assertEquals(sheet, await enrichedSheet(servedXlsx));
        const summary = await (await get("/api/jobs/1/summary")).json();
        assertEquals(summary.rows, kept.rows);
        const left = [...Deno.readDirSync(join(dataDir, "results/1"))]
          .map((e) => e.name).filter((n) => !/\.(csv|idx|json)$/.test(n));
        assertEquals(left, [], `start ${start}`);
      } finally {
        await server.stop();
      }
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}
