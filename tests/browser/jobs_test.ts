// Long-running jobs in a real browser: the processing view, partial
// download, cancel with its confirmation (processing view and history), and
// restart of a failed job. Jobs are made slow by a DNS server on loopback
// that answers each reverse lookup after 100 ms, one query at a time.

import assert from "node:assert/strict";
import {
  asTestVisitor,
  createJob,
  downloadedRows,
  parseCsv,
  sampleCsv,
  screenshot,
  visitorPage,
  waitFor,
  writeCsv,
} from "./browser.ts";
import { distinctIps, slowBrowserTest } from "./slow_resolver.ts";
import { sessionFetch } from "../helpers/cookie_jar.ts";

async function getJob(baseUrl: string, id: number) {
  return await (await sessionFetch(`${baseUrl}/api/jobs/${id}`)).json();
}

slowBrowserTest(
  "processing view: live progress, partial download, cancel",
  async (server, browser) => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    await asTestVisitor(context, server.url);
    const page = await context.newPage();
    const csvPath = await writeCsv("slow.csv", sampleCsv(distinctIps(600)));

    await page.goto(server.url + "/");
    await page.locator('input[type="file"]').setInputFiles(csvPath);
    await page.getByRole("button", { name: "Start Processing" }).click();
    await page.getByText("Processing started").waitFor();
    await page.getByRole("heading", { name: "Processing IP Addresses" })
      .waitFor();
    const current = await page.locator('.steps [aria-current="step"]')
      .textContent();
    assert.match(current ?? "", /Process Data/);
    await page.getByText("Live Updates").waitFor();

    // Progress arrives: counts, live rows, an estimate.
    await page.getByText(/Processed ([1-9]\d*) of 600 IP addresses/).waitFor({
      timeout: 20_000,
    });
    await page.locator(".live-results tbody td.ip").first().waitFor();
    await waitFor(
      async () =>
        !(await page.getByText("Calculating...").isVisible()) &&
        await page.getByText("Waiting for results...").count() === 0,
      10_000,
      "an estimate and live rows",
    );
    await page.getByText(
      /Showing \d+ most recent results \(limited to last 100 for better performance\)/,
    ).waitFor();
    await screenshot(page, "03-processing");

    // Download Partial Results opens the file in a new tab.
    const partial = page.getByRole("button", {
      name: "Download Partial Results",
    });
    assert.equal(await partial.getAttribute("target"), "_blank");
    const href = await partial.getAttribute("href");
    assert.ok(href);
    const partialCsv = parseCsv(
      await (await sessionFetch(new URL(href, server.url))).text(),
    );
    assert.equal(partialCsv[0][0], "ip_address");
    assert.ok(partialCsv.length > 1, "the partial download has rows");
    const [popup] = await Promise.all([
      context.waitForEvent("page"),
      partial.click(),
    ]);
    await popup.close().catch(() => {});

    // Cancel Processing asks first; "Don't Cancel" keeps the job running.
    await page.getByRole("button", { name: "Cancel Processing" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel this job?" });
    await dialog.waitFor();
    await dialog.getByText(/cannot be resumed/).waitFor();
    await screenshot(page, "10-cancel-dialog");
    await dialog.getByRole("button", { name: "Don't Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    const id =
      (await (await sessionFetch(`${server.url}/api/jobs`)).json())[0].id;
    assert.equal((await getJob(server.url, id)).status, "processing");

    await page.getByRole("button", { name: "Cancel Processing" }).click();
    await dialog.getByRole("button", { name: "Yes, Cancel Job" }).click();
    await page.getByText("Processing canceled").waitFor();
    await page.getByText("The job has been canceled successfully.").waitFor();
    await page.getByText("This job was cancelled.").waitFor();
    const job = await waitFor(
      async () => {
        const j = await getJob(server.url, id);
        return j.status === "cancelled" ? j : null;
      },
      5000,
      "the job to be cancelled",
    );
    await screenshot(page, "11-processing-cancelled");

    // History: a Cancelled badge and its partial download.
    await page.goto(server.url + "/history");
    const row = page.locator(`tr[data-job-id="${id}"]`);
    await row.getByText("Cancelled").waitFor();
    await screenshot(page, "12-history-cancelled");
    const rows = await downloadedRows(
      page,
      row.getByRole("link", { name: /Partial Download/ }),
    );
    const [header, ...data] = rows;
    assert.deepEqual(header.slice(0, 3), [
      "ip_address",
      "client_id",
      "timestamp",
    ]);
    const final = await getJob(server.url, job.id);
    assert.ok(data.length > 0, "the partial download has rows");
    assert.equal(data.length, final.processedIPs - final.filteredIPs);
    assert.ok(final.processedIPs < 600);
  },
);

slowBrowserTest(
  "history: cancel with confirmation, restart a failed job",
  async (server, browser) => {
    const slow = await createJob(
      server.url,
      "slow.csv",
      sampleCsv(distinctIps(600)),
      { includeDomain: 1 },
    );
    const quickCsv = sampleCsv();
    const quick = await createJob(server.url, "quick.csv", quickCsv);
    await waitFor(
      async () => (await getJob(server.url, slow.id)).status === "processing",
      10_000,
      "the slow job to start",
    );
    assert.equal((await getJob(server.url, quick.id)).status, "pending");
    // Take the waiting job's upload away: it fails when it starts.
    const uploadPath = `${server.dataDir}/uploads/${quick.fileName}`;
    await Deno.remove(uploadPath);

    const { page } = await visitorPage(browser, server.url);
    await page.goto(server.url + "/history");
    const slowRow = page.locator(`tr[data-job-id="${slow.id}"]`);
    const quickRow = page.locator(`tr[data-job-id="${quick.id}"]`);
    await slowRow.getByText("Processing").waitFor();
    await quickRow.getByText("Pending").waitFor();
    assert.match(await slowRow.getAttribute("class") ?? "", /row-processing/);
    await slowRow.getByRole("link", { name: /Continue Monitoring/ })
      .waitFor();
    await screenshot(page, "13-history-processing");

    // Continue Monitoring: ?jobId= loads the running job in the live view.
    await slowRow.getByRole("link", { name: /Continue Monitoring/ }).click();
    await page.waitForURL(`**/?jobId=${slow.id}`);
    await page.getByText("Job Loaded", { exact: true }).waitFor();
    await page.getByText("Continuing with job: slow.csv").waitFor();
    await page.getByRole("heading", { name: "Processing IP Addresses" })
      .waitFor();
    await page.getByText(/Processed \d+ of 600 IP addresses/).waitFor();
    await screenshot(page, "15-continue-processing");
    await page.goto(server.url + "/history");

    // Cancel: "Don't Cancel" first, then "Yes, Cancel Job".
    await slowRow.getByRole("button", { name: /Cancel/ }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel this job?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Don't Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    assert.equal((await getJob(server.url, slow.id)).status, "processing");
    await slowRow.getByRole("button", { name: /Cancel/ }).click();
    await dialog.getByRole("button", { name: "Yes, Cancel Job" }).click();
    await page.getByText("Job Cancelled", { exact: true }).waitFor();
    await slowRow.getByText("Cancelled").waitFor();

    // The waiting job starts now and fails: its file is gone.
    await quickRow.getByText("Failed").waitFor({ timeout: 20_000 });
    await quickRow.getByRole("button", { name: /Restart/ }).waitFor();
    await screenshot(page, "14-history-failed");

    // Put the file back and restart: the job runs to the end.
    await Deno.writeTextFile(uploadPath, quickCsv);
    await quickRow.getByRole("button", { name: /Restart/ }).click();
    await page.getByText("Job Restarted", { exact: true }).waitFor();
    await quickRow.getByText("Completed").waitFor({ timeout: 20_000 });
    await quickRow.getByRole("link", { name: /View/ }).waitFor();
    assert.equal((await getJob(server.url, quick.id)).status, "completed");
  },
  { JOB_CONCURRENCY: "1" },
);
