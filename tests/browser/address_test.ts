// The address names the job: /?jobId={id} while it runs, /results/{id} when
// it is done, and a reload shows the same view; the results' row counts add
// up to the total.

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { sessionFetch } from "../helpers/cookie_jar.ts";
import { sampleCsv, screenshot, visitorPage, writeCsv } from "./browser.ts";
import { distinctIps, slowBrowserTest } from "./slow_resolver.ts";

/** The row-count tiles as numbers, by their test id. */
async function rowCounts(page: Page): Promise<Record<string, number>> {
  const tiles = page.locator('.tiles [data-testid^="rows-"]');
  const counts: Record<string, number> = {};
  for (const tile of await tiles.all()) {
    const key = (await tile.getAttribute("data-testid"))!.slice("rows-".length);
    const value = await tile.locator(".tile-value").textContent();
    counts[key] = Number((value ?? "").replaceAll(",", ""));
  }
  return counts;
}

slowBrowserTest(
  "address: /?jobId= while a job runs, /results/{id} when done; reloads keep the view",
  async (server, browser) => {
    const { page, errors } = await visitorPage(browser, server.url);

    // A slow job (host names at 100 ms each), started in the app.
    await page.goto(server.url + "/");
    await page.locator('input[type="file"]').setInputFiles(
      await writeCsv("slow.csv", sampleCsv(distinctIps(600))),
    );
    await page.getByRole("button", { name: "Start Processing" }).click();
    await page.waitForURL(/\/\?jobId=\d+$/);
    const slowId = Number(new URL(page.url()).searchParams.get("jobId"));
    await page.getByRole("heading", { name: "Processing IP Addresses" })
      .waitFor();

    // A reload shows the same job still processing.
    await page.reload();
    await page.getByRole("heading", { name: "Processing IP Addresses" })
      .waitFor();
    assert.equal(new URL(page.url()).search, `?jobId=${slowId}`);
    await page.locator(".details-grid dd", { hasText: "slow.csv" }).waitFor();
    await page.getByText(/of 600 IP addresses/).waitFor();
    await screenshot(page, "address-processing-reloaded");
    const cancel = await sessionFetch(
      `${server.url}/api/jobs/${slowId}/cancel`,
      { method: "POST" },
    );
    await cancel.body?.cancel();

    // A quick job (no host names): the address moves to its results.
    await page.goto(server.url + "/");
    const ips = [
      "8.8.8.8",
      "8.8.8.8",
      "81.2.69.142",
      "23.24.0.1", // Comcast: consumer broadband, left out
      "73.162.0.1", // Comcast
      "bogus", // failed
    ];
    await page.locator('input[type="file"]').setInputFiles(
      await writeCsv("quick.csv", sampleCsv(ips)),
    );
    await page.getByLabel("Domain Name").uncheck();
    await page.getByRole("button", { name: "Start Processing" }).click();
    await page.waitForURL(/\/results\/\d+$/, { timeout: 30_000 });
    // The results (a toast may say the same while it shows).
    const results = page.getByRole("article", { name: "Enrichment Results" });
    const quickId = Number(new URL(page.url()).pathname.split("/").pop());
    assert.notEqual(quickId, slowId);
    await results.getByText("Processing complete").waitFor();
    await page.getByTestId("rows-total").waitFor();

    // A reload shows the same results, at the flow's last step.
    await page.reload();
    assert.equal(new URL(page.url()).pathname, `/results/${quickId}`);
    await results.getByText("Processing complete").waitFor();
    await page.getByTestId("rows-total").waitFor();
    assert.match(
      await page.locator('.steps [aria-current="step"]').textContent() ?? "",
      /Download Results/,
    );

    // One set of counts: kept and left out add up to the total (the
    // failed row is kept, with its reason), each says what it is, and the
    // duration is the figure with the finish time the note.
    const counts = await rowCounts(page);
    assert.deepEqual(counts, {
      total: 6,
      kept: 4,
      "left-out-consumer_isp": 2,
      "left-out-mobile": 0,
      failed: 1,
    });
    const tile = (id: string) => page.getByTestId(id);
    await tile("rows-kept").getByText("Kept in the download").waitFor();
    await tile("rows-left-out-consumer_isp")
      .getByText("left out of the download").waitFor();
    await tile("rows-failed").getByText("in the download with the reason")
      .waitFor();
    assert.match(
      await tile("duration").locator(".tile-value").textContent() ?? "",
      /^\d\d:\d\d/,
    );
    assert.match(
      await tile("duration").locator(".tile-note").textContent() ?? "",
      /^finished at \d\d:\d\d:\d\d$/,
    );
    await screenshot(page, "address-results-reloaded");

    // ?jobId= of a completed job moves to its results' address too.
    await page.goto(`${server.url}/?jobId=${quickId}`);
    await page.waitForURL(new RegExp(`/results/${quickId}$`));
    await page.getByTestId("rows-total").waitFor();

    // Process Another File goes back to an empty upload at /.
    await page.getByRole("button", { name: "Process Another File" }).click();
    await page.getByRole("heading", { name: "Upload IP Addresses" })
      .waitFor();
    assert.equal(
      new URL(page.url()).pathname + new URL(page.url()).search,
      "/",
    );
    assert.deepEqual(errors, []);
  },
);
