// The whole flow in a real browser against the real server: upload, config,
// processing, results (pagination), CSV and Excel downloads, /results/:id,
// ?jobId= continue, history and Clear Completed Jobs.

import assert from "node:assert/strict";
import {
  asTestVisitor,
  browserTest,
  createJob,
  downloadedRows,
  NO_DNS,
  PUBLIC_IPS,
  sampleCsv,
  screenshot,
  visitorPage,
  writeCsv,
} from "./browser.ts";
import { sessionFetch } from "../helpers/cookie_jar.ts";

browserTest(
  "upload -> config -> results -> downloads, history, continue, clear",
  NO_DNS,
  async (server, browser) => {
    const { page, errors } = await visitorPage(browser, server.url, {
      acceptDownloads: true,
    });

    // 25 rows of 4 public IPs: three preview pages.
    const ips = Array.from({ length: 25 }, (_, i) => PUBLIC_IPS[i % 4]);
    const csvPath = await writeCsv("visitors.csv", sampleCsv(ips));

    await page.goto(server.url + "/");
    await page.getByRole("heading", { name: "Upload IP Addresses" })
      .waitFor();
    await page.getByText("Maximum file size: 10MB").waitFor();
    await screenshot(page, "01-home-upload");

    await page.locator('input[type="file"]').setInputFiles(csvPath);
    await page.getByText("File uploaded successfully").waitFor();
    await page.getByRole("heading", { name: "Configuration Options" })
      .waitFor();
    assert.equal(
      await page.getByLabel("IP Address Column").inputValue(),
      "ip_address",
    );
    for (
      const label of [
        "Geolocation (Country, City, Region)",
        "Domain Name",
        "Company Information",
        "Network Information (ASN, ISP)",
      ]
    ) {
      assert.ok(await page.getByLabel(label).isChecked(), label);
    }
    await screenshot(page, "02-config");

    // Back returns to upload; upload again and start.
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("heading", { name: "Upload IP Addresses" })
      .waitFor();
    await page.locator('input[type="file"]').setInputFiles(csvPath);
    await page.getByRole("button", { name: "Start Processing" }).click();

    await page.getByRole("heading", { name: "Enrichment Results" }).waitFor({
      timeout: 30_000,
    });
    await page.getByText("Processing complete").first().waitFor();
    await page.getByText(/Successfully processed \d+ of 25 IP addresses/)
      .waitFor();
    await page.getByText("Showing 1 to 10 of 25 results").waitFor();
    assert.equal(
      await page.locator(".results-table tbody tr").count(),
      10,
    );
    const stepCurrent = await page.locator('.steps [aria-current="step"]')
      .textContent();
    assert.match(stepCurrent ?? "", /Download Results/);
    await screenshot(page, "04-results");

    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Showing 11 to 20 of 25 results").waitFor();
    await page.getByRole("button", { name: "Page 3" }).click();
    await page.getByText("Showing 21 to 25 of 25 results").waitFor();
    assert.equal(await page.locator(".results-table tbody tr").count(), 5);
    assert.ok(
      await page.getByRole("button", { name: "Next" }).isDisabled(),
      "Next is disabled on the last page",
    );
    await page.getByRole("link", { name: "IP Geolocation by DB-IP" })
      .waitFor();

    // The job as the server sees it.
    const jobs = await (await sessionFetch(`${server.url}/api/jobs`)).json();
    assert.equal(jobs.length, 1);
    const job = jobs[0];
    assert.equal(job.status, "completed");
    assert.equal(job.totalIPs, 25);

    // Download CSV: original columns first, ISP-filtered rows left out.
    const rows = await downloadedRows(
      page,
      page.getByRole("button", { name: "Download CSV" }),
    );
    const [header, ...data] = rows;
    assert.deepEqual(header.slice(0, 3), [
      "ip_address",
      "client_id",
      "timestamp",
    ]);
    assert.ok(header.includes("country"), header.join());
    assert.ok(header.includes("asn"), header.join());
    assert.equal(data.length, 25 - job.filteredIPs);
    const google = data.find((row) => row[0] === "8.8.8.8");
    assert.ok(google, "8.8.8.8 is in the download");
    assert.equal(google[1], "1001");
    assert.equal(google[header.indexOf("country")], "United States");

    // Process Another File goes back to the upload step.
    await page.getByRole("button", { name: "Process Another File" }).click();
    await page.getByRole("heading", { name: "Upload IP Addresses" })
      .waitFor();

    // History: the completed job with View and Download.
    await page.goto(server.url + "/history");
    const row = page.locator(`tr[data-job-id="${job.id}"]`);
    await row.getByText("visitors.csv").waitFor();
    await row.getByText("Completed").waitFor();
    await row.getByText("100%").waitFor();
    await page.getByText("1 job(s) total").waitFor();
    await screenshot(page, "05-history");

    await row.getByRole("link", { name: /View/ }).click();
    await page.waitForURL(`**/results/${job.id}`);
    await page.getByRole("heading", { name: "Enrichment Results" }).waitFor();
    await page.getByText("Showing 1 to 10 of 25 results").waitFor();
    await screenshot(page, "06-results-route");

    // A direct visit to /results/:id renders the results too.
    await page.goto(`${server.url}/results/${job.id}`);
    await page.getByRole("heading", { name: "Enrichment Results" }).waitFor();

    // ?jobId= continues the job: a completed one shows its results, at
    // their own address.
    await page.goto(`${server.url}/?jobId=${job.id}`);
    await page.getByText("Job Loaded").waitFor();
    await page.getByText("Continuing with job: visitors.csv").waitFor();
    await page.getByRole("heading", { name: "Enrichment Results" }).waitFor();
    await page.waitForURL(`**/results/${job.id}`);
    await screenshot(page, "07-continue-job");

    // Clear completed jobs, with its confirmation.
    await page.goto(server.url + "/history");
    await page.getByRole("button", { name: "Clear Completed Jobs" }).click();
    const dialog = page.getByRole("dialog", {
      name: "Clear completed jobs?",
    });
    await dialog.waitFor();
    await dialog.getByText(/permanently deleted/).waitFor();
    await screenshot(page, "08-clear-dialog");
    // Cancel keeps them.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("1 job(s) total").waitFor();
    await page.getByRole("button", { name: "Clear Completed Jobs" }).click();
    await page.getByRole("button", { name: "Clear Jobs" }).click();
    await page.getByText("Jobs Cleared").waitFor();
    await page.getByText("Successfully cleared 1 completed job(s)").waitFor();
    await page.getByText("You haven't processed any files yet.").waitFor();
    await page.getByText("0 job(s) total").waitFor();
    assert.equal(
      await page.getByRole("button", { name: "Clear Completed Jobs" })
        .count(),
      0,
    );
    await screenshot(page, "09-history-empty");

    // An unknown job: the results view says so at once, without a toast.
    await page.goto(`${server.url}/results/99999`);
    await page.getByRole("heading", {
      name: "Job 99999 is not available here",
    })
      .waitFor();
    assert.equal(await page.getByText(/try again/i).count(), 0);
    assert.equal(await page.getByTestId("toast").count(), 0);
    await screenshot(page, "16-results-unavailable");

    assert.deepEqual(errors, []);
  },
);

browserTest(
  "Export Excel downloads a real .xlsx",
  {},
  async (server, browser) => {
    const { id } = await createJob(server.url, "excel.csv", sampleCsv());
    const page = await browser.newPage({ acceptDownloads: true });
    await asTestVisitor(page.context(), server.url);
    await page.goto(`${server.url}/results/${id}`);
    await page.getByText("Processing complete").first().waitFor({
      timeout: 30_000,
    });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export Excel" }).click(),
    ]);
    const xlsx = await Deno.readFile(await download.path());
    assert.equal(new TextDecoder().decode(xlsx.slice(0, 2)), "PK");
    assert.match(download.suggestedFilename(), /\.xlsx$/);
  },
);
