// The job routes over real HTTP against one server: jobs that run, their
// downloads, previews and live feed. Validation is tested in process in
// server/routes/jobs_test.ts.
// (Over 300 lines: its steps share one server and one job, so splitting the
// file would start that server and job again.)
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { join } from "node:path";
import type {
  Job,
  PreviewResponse,
  RecentResultsResponse,
} from "../../shared/wire.ts";
import {
  csvRecords,
  downloadText,
  getJson,
  parseCsv,
  postJson,
  startJob,
  uploadOk,
  waitForJob,
} from "../helpers/client.ts";
import { startServer, usingPostgres } from "../helpers/server.ts";
import ExcelJS from "exceljs";
import { sessionFetch } from "../helpers/cookie_jar.ts";
import { jobThreads, threadNiceValues } from "../helpers/threads.ts";

const server = await startServer({
  env: {
    DNS_SERVERS: "127.0.0.1:9",
    DNS_TIMEOUT_MS: "50",
    // The job's thread is kept after it, for the priority check below.
    JOB_WORKER_IDLE_SECONDS: "600",
  },
});

const CSV = [
  "ip_address,client_id,note",
  '8.8.8.8,1,"a, b"',
  "23.24.0.1:80,2,comcast home", // consumer ISP: filtered
  "10.0.0.1,3,private",
  "bogus,4,invalid",
  "[2001:4860:4860::8888]:443,5,=SUM(A1)",
  "81.2.69.142,6,-5",
  "8.8.8.8,7,repeat",
].join("\n") + "\n";

Deno.test({
  name: "jobs",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const uploaded = await uploadOk(server, "visitors.csv", CSV);
    let job: Job;

    await t.step(
      "a job runs to completion with counts that add up",
      async () => {
        const created = await startJob(server, uploaded, "ip_address");
        assertEquals(created.status, "pending");
        assertEquals(created.totalIPs, 7);
        job = await waitForJob(server, created.id);
        assertEquals(job.status, "completed");
        assertEquals(job.processedIPs, 7);
        assertEquals(job.successfulIPs, 5);
        assertEquals(job.failedIPs, 2);
        assertEquals(job.filteredIPs, 1);
        assertEquals(job.partialSaveAvailable, true);
        ok(job.completedAt);
      },
    );

    await t.step({
      name: "the job ran on threads below the HTTP thread's priority",
      // PostgreSQL mode runs chunks in the server's own thread; /proc: Linux.
      ignore: usingPostgres || Deno.build.os !== "linux",
      fn() {
        const nice = threadNiceValues(server.process.pid);
        assertEquals(nice.get(server.process.pid), 0);
        // The job thread that ran the job's one chunk (and committed it),
        // kept for the next chunk.
        assertEquals(jobThreads(server.process.pid), 1);
      },
    });

    await t.step(
      "the download keeps original columns and leaves out consumer ISPs",
      async () => {
        const text = await downloadText(server, job.id);
        const rows = parseCsv(text);
        assertEquals(rows[0], [
          "ip_address",
          "client_id",
          "note",
          "country",
          "country_code",
          "region",
          "city",
          "latitude",
          "longitude",
          "company",
          "network_type",
          "classification_reason",
          "classification_confidence",
          "isp",
          "asn",
          "ip_used",
          "enrichment_success",
          "enrichment_error",
        ]);
        const records = csvRecords(text);
        assertEquals(records.map((r) => r.client_id), [
          "1",
          "3",
          "4",
          "5",
          "6",
          "7",
        ]);
        assertEquals(records[0].note, "a, b");
        assertEquals(records[3].note, "=SUM(A1)", "original values untouched");
        assertEquals(records[4].note, "-5");
        assertEquals(records[0].asn, "AS15169 Google LLC");
        assertEquals(records[0].classification_reason, "curated hosting AS");
        assertEquals(records[0].country, "United States");
        assertEquals(records[1].enrichment_success, "false");
        match(records[1].enrichment_error, /Private address/);
        assertEquals(records[2].enrichment_error, "Invalid IP address");
        assertEquals(records[3].ip_address, "[2001:4860:4860::8888]:443");
        assertEquals(records[3].company, "Google LLC");
      },
    );

    await t.step("Export Excel has the same rows as the CSV", async () => {
      const response = await sessionFetch(
        `${server.url}/api/jobs/${job.id}/download?format=xlsx`,
      );
      assertEquals(response.status, 200);
      match(
        response.headers.get("content-disposition") ?? "",
        /visitors-enriched\.xlsx/,
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await response.arrayBuffer());
      // The rows follow the "Summary" sheet (tests/http/summary_test.ts).
      assertEquals(workbook.worksheets.map((w) => w.name), [
        "Summary",
        "Enriched",
      ]);
      const sheet = workbook.worksheets[1];
      const cells: string[][] = [];
      sheet.eachRow((row) => {
        // row.values is sparse and 1-based.
        const values = Array.from((row.values as unknown[]).slice(1));
        cells.push(
          values.map((v) => v === undefined || v === null ? "" : String(v)),
        );
      });
      const csv = parseCsv(await downloadText(server, job.id));
      assertEquals(cells.length, csv.length);
      for (let i = 0; i < csv.length; i++) {
        const width = csv[i].length;
        assertEquals(
          [...cells[i], ...Array(width).fill("")].slice(0, width),
          csv[i],
          `row ${i}`,
        );
      }
      const bad = await sessionFetch(
        `${server.url}/api/jobs/${job.id}/download?format=pdf`,
      );
      assertEquals(bad.status, 400);
      await bad.body?.cancel();
    });

    await t.step("only the chosen columns are added", async () => {
      const only = await startJob(server, uploaded, "ip_address", {
        includeGeolocation: 0,
        includeCompany: 0,
        includeNetwork: 1,
      });
      await waitForJob(server, only.id);
      const [header] = parseCsv(await downloadText(server, only.id));
      assertEquals(header.slice(3), [
        "isp",
        "asn",
        "ip_used",
        "enrichment_success",
        "enrichment_error",
      ]);
    });

    await t.step("ragged rows keep every cell", async () => {
      const ragged = await uploadOk(
        server,
        "ragged.csv",
        "ip,a\n8.8.8.8\n1.1.1.1,x,extra1,extra2\n9.9.9.9,y\n",
      );
      assertEquals(ragged.headers, ["ip", "a", "column_3", "column_4"]);
      const done = await startJob(server, ragged, "ip", {
        includeCompany: 0,
        includeGeolocation: 0,
      });
      await waitForJob(server, done.id);
      const rows = parseCsv(await downloadText(server, done.id));
      assertEquals(rows.map((r) => r.slice(0, 4)), [
        ["ip", "a", "column_3", "column_4"],
        ["8.8.8.8", "", "", ""],
        ["1.1.1.1", "x", "extra1", "extra2"],
        ["9.9.9.9", "y", "", ""],
      ]);
    });

    await t.step("list and read jobs", async () => {
      const list = await getJson<Job[]>(server, "/api/jobs");
      assertEquals(list.status, 200);
      ok(list.body.some((j) => j.id === job.id));
      assertEquals((await getJson(server, "/api/jobs/99999")).status, 404);
      for (const bad of ["abc", "-1", "1e9", "0", "1.5"]) {
        const response = await getJson<{ message: string }>(
          server,
          `/api/jobs/${bad}`,
        );
        assertEquals(response.status, 400, bad);
        match(response.body.message, /positive whole number/);
      }
    });

    await t.step(
      "preview pages through all rows, filtered ones marked",
      async () => {
        const first = await getJson<PreviewResponse>(
          server,
          `/api/jobs/${job.id}/preview?page=1&limit=5`,
        );
        assertEquals(first.status, 200);
        assertEquals(first.body.totalResults, 7);
        assertEquals(first.body.totalPages, 2);
        assertEquals(first.body.currentPage, 1);
        assertEquals(first.body.preview.length, 5);
        assertEquals(first.body.preview[1].ispFiltered, true);
        assertEquals(first.body.preview[0].asn, "AS15169 Google LLC");
        const second = await getJson<PreviewResponse>(
          server,
          `/api/jobs/${job.id}/preview?page=2&limit=5`,
        );
        assertEquals(second.body.preview.map((p) => p.ip), [
          "81.2.69.142",
          "8.8.8.8",
        ]);
        const defaults = await getJson<PreviewResponse>(
          server,
          `/api/jobs/${job.id}/preview`,
        );
        assertEquals(defaults.body.currentPage, 1);
        assertEquals(defaults.body.preview.length, 7);
        for (const page of ["0", "3", "-1", "x"]) {
          const response = await getJson<{ message: string }>(
            server,
            `/api/jobs/${job.id}/preview?page=${page}&limit=5`,
          );
          assertEquals(response.status, 400, page);
        }
        const outside = await getJson<{ message: string }>(
          server,
          `/api/jobs/${job.id}/preview?page=3&limit=5`,
        );
        match(outside.body.message, /from 1 to 2/);
      },
    );

    await t.step("recent results: since, limit and getLatest", async () => {
      const since = await getJson<RecentResultsResponse>(
        server,
        `/api/jobs/${job.id}/recent-results?since=2&limit=3`,
      );
      assertEquals(since.body.results.map((r) => r.rowIndex), [2, 3, 4]);
      assertEquals(since.body.nextIndex, 5);
      const row = since.body.results[0];
      assertEquals(row.originalData, {
        ip_address: "10.0.0.1",
        client_id: "3",
        note: "private",
      });
      assertEquals(row.success, false);
      const latest = await getJson<RecentResultsResponse>(
        server,
        `/api/jobs/${job.id}/recent-results?getLatest=true&limit=2`,
      );
      assertEquals(latest.body.results.map((r) => r.rowIndex), [5, 6]);
      assertEquals(latest.body.results[0].enrichmentData.city, "London");
      const end = await getJson<RecentResultsResponse>(
        server,
        `/api/jobs/${job.id}/recent-results?since=7`,
      );
      assertEquals(end.body, { results: [], nextIndex: 7 });
      const defaults = await getJson<RecentResultsResponse>(
        server,
        `/api/jobs/${job.id}/recent-results`,
      );
      assertEquals(defaults.body.results.length, 7);
    });

    await t.step(
      "cancel and restart refuse jobs in the wrong state",
      async () => {
        const cancel = await postJson(server, `/api/jobs/${job.id}/cancel`, "");
        assertEquals(cancel.status, 409);
        match((await cancel.json()).message, /completed/);
        const restart = await postJson(
          server,
          `/api/jobs/${job.id}/restart`,
          "",
        );
        assertEquals(restart.status, 409);
        assertEquals(
          (await postJson(server, "/api/jobs/4242/cancel", "")).status,
          404,
        );
      },
    );

    await t.step("single lookup", async () => {
      const found = await getJson<Record<string, unknown>>(
        server,
        "/api/lookup?ip=8.8.8.8",
      );
      assertEquals(found.body.success, true);
      assertEquals(found.body.ip, "8.8.8.8");
      assertEquals(found.body.asn, "AS15169 Google LLC");
      assertEquals(found.body.ispFiltered, false);
      const notAnIp = await getJson<Record<string, unknown>>(
        server,
        "/api/lookup?ip=not-an-ip",
      );
      assertEquals(notAnIp.status, 200);
      assertEquals(notAnIp.body.success, false);
      assertEquals(notAnIp.body.error, "Invalid IP address format");
      for (const bad of ["ip=", ""]) {
        const response = await getJson<Record<string, unknown>>(
          server,
          `/api/lookup?${bad}`,
        );
        assertEquals(response.status, 400, bad);
        assertEquals(response.body.success, false, bad);
      }
      const privateIp = await getJson<Record<string, unknown>>(
        server,
        "/api/lookup?ip=10.1.1.1",
      );
      assertEquals(privateIp.body.success, false);
      match(String(privateIp.body.error), /Private/);
    });

    await t.step(
      "unknown API paths answer JSON 404s; client routes get the app",
      async () => {
        const missing = await getJson<{ message: string }>(
          server,
          "/api/nothing-here",
        );
        assertEquals(missing.status, 404);
        match(missing.body.message, /Not found/);
        for (const path of ["/", "/history", `/results/${job.id}`]) {
          const page = await sessionFetch(`${server.url}${path}`);
          assertEquals(page.status, 200, path);
          match(page.headers.get("content-type") ?? "", /text\/html/);
          await page.body?.cancel();
        }
        const unknown = await sessionFetch(`${server.url}/no/such/page`);
        assertEquals(unknown.status, 404);
        await unknown.body?.cancel();
      },
    );

    await t.step(
      "clear completed removes jobs, results and their files",
      async () => {
        const response = await postJson(
          server,
          "/api/jobs/completed",
          "",
          "DELETE",
        );
        assertEquals(response.status, 200);
        assertEquals(await response.json(), { cleared: 3 });
        assertEquals(
          (await getJson(server, `/api/jobs/${job.id}`)).status,
          404,
        );
        const files = [...Deno.readDirSync(join(server.dataDir, "uploads"))];
        assertEquals(files.length, 0);
        const again = await postJson(
          server,
          "/api/jobs/completed",
          "",
          "DELETE",
        );
        assertEquals(await again.json(), { cleared: 0 });
      },
    );
  },
});

addEventListener("unload", () => server.stop());
