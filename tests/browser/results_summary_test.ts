// The job summary and the preview filters on the real app in Chromium:
// /results/:id of a finished job shows the charts and the map above the
// preview, labelled, with the known top entries, at 375 px without
// horizontal scroll; the filters narrow the preview (by the server); the
// processing view shows the summary while a job runs.

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { sessionFetch } from "../helpers/cookie_jar.ts";
import { startSlowDnsServer } from "../helpers/server_with_dns.ts";
import {
  browserTest,
  checkSummaryCharts,
  createJob,
  launchBrowser,
  NO_DNS,
  screenshot,
  visitorPage,
  waitFor,
  waitForCompleted,
} from "./browser.ts";

const OPTIONS = { sanitizeOps: false, sanitizeResources: false };

/** Addresses with known answers from the bundled databases, and copies. */
const SEED: [string, number][] = [
  ["8.8.8.8", 6], // Google LLC, US, hosting
  ["8.8.4.4", 4], // Google LLC, US, hosting
  ["81.2.69.142", 5], // Andrews & Arnold Ltd, GB, business
  ["1.1.1.1", 3], // Cloudflare, Inc., AU, hosting
  ["23.24.0.1", 4], // Comcast, US, consumer ISP: filtered
  ["73.162.0.1", 3], // Comcast, US, consumer ISP: filtered
  ["bogus", 2], // invalid
];

function seededCsv(): string {
  const rows = ["ip_address,n"];
  for (const [ip, copies] of SEED) {
    for (let i = 0; i < copies; i++) rows.push(`${ip},${rows.length}`);
  }
  return rows.join("\n") + "\n";
}

/** The "Showing ... of N ..." line under the preview. */
const shownLine = (page: Page) =>
  page.locator(".pagination-row p").first().textContent();

/** The first figure of an element's text ("Processed 3,889 of ..." -> 3889). */
const figure = async (page: Page, selector: string) =>
  Number(
    ((await page.locator(selector).first().textContent() ?? "")
      .match(/\d[\d,]*/)?.[0] ?? "").replaceAll(",", ""),
  );

browserTest(
  "results: summary charts and map, preview filters",
  NO_DNS,
  async (server, browser) => {
    const job = await createJob(server.url, "known.csv", seededCsv());
    await waitForCompleted(server.url, job.id);

    for (const width of [1280, 375]) {
      const { page, errors } = await visitorPage(browser, server.url, {
        viewport: { width, height: 900 },
      });
      await page.goto(`${server.url}/results/${job.id}`);

      const labels = await checkSummaryCharts(page, {
        company: ["Google LLC", 10],
        country: ["United States", 17],
        hosting: 13,
      });
      assert.match(labels[3], /most rows from United States \(17\)/);
      const countries = await page.locator(".summary-plot").nth(3)
        .locator('g[data-part="geo"] path').count();
      assert.ok(countries > 170, `${countries} countries on the map`);

      // The summary comes before the preview.
      const top = (selector: string) =>
        page.locator(selector).first().evaluate((e) =>
          e.getBoundingClientRect().top
        );
      const summaryTop = await top(".summary-panel");
      const previewTop = await top(".results-table");
      assert.ok(summaryTop < previewTop);

      const scroll = await page.evaluate<number>(
        "document.documentElement.scrollWidth",
      );
      assert.ok(scroll <= width, `${scroll}px wide at ${width}px`);
      await screenshot(page, `results-summary-${width}`);

      // One set of counts: kept + left out = rows, the failed rows among
      // the kept (the CSV has them); the consumer tile and bar agree.
      const tile = (id: string) =>
        figure(page, `[data-testid="rows-${id}"] .tile-value`);
      assert.deepEqual(
        [
          await tile("total"),
          await tile("kept"),
          await tile("left-out-consumer_isp"),
          await tile("left-out-mobile"),
          await tile("failed"),
        ],
        [27, 20, 7, 0, 2],
      );
      await page.locator('[data-testid="rows-left-out-consumer_isp"]')
        .getByText("Consumer ISP").waitFor();
      // Rows, and the distinct addresses they hold ("bogus" is none).
      await page.locator('[data-testid="rows-total"]')
        .getByText("kept + left out; 6 distinct addresses").waitFor();
      assert.match(labels[2], /Consumer ISP \(7 rows\)/);

      // Failed rows say why, and the preview lists them alone.
      await page.locator('select[name="status"]').selectOption("failed");
      await waitFor(
        async () => /of 2 matching results/.test(await shownLine(page) ?? ""),
        10_000,
        "2 failed rows",
      );
      const failedRows = await page.locator(".results-table tbody tr")
        .allTextContents();
      assert.equal(failedRows.length, 2);
      for (const row of failedRows) {
        assert.match(row, /bogus/);
        assert.match(row, /Failed: Invalid IP address/);
        assert.doesNotMatch(row, /ISP Filtered|No$/);
      }
      await screenshot(page, `results-failed-rows-${width}`);
      const wideScroll = await page.evaluate<number>(
        "document.documentElement.scrollWidth",
      );
      assert.ok(wideScroll <= width, `${wideScroll}px wide at ${width}px`);
      await page.locator('select[name="status"]').selectOption("");
      await waitFor(
        async () => /of 27 results/.test(await shownLine(page) ?? ""),
        10_000,
        "every row again",
      );
      assert.deepEqual(errors, []);
      if (width === 375) {
        await page.close();
        continue;
      }

      // Filters: the server narrows and pages the preview.
      assert.match(await shownLine(page) ?? "", /of 27 results/);
      await page.locator('select[name="status"]').selectOption("filtered");
      await waitFor(
        async () => /of 7 matching results/.test(await shownLine(page) ?? ""),
        10_000,
        "7 filtered rows",
      );
      const filteredCells = await page.locator(".results-table tbody tr")
        .evaluateAll((rows) => rows.map((r) => r.textContent ?? ""));
      assert.equal(filteredCells.length, 7);
      assert.ok(filteredCells.every((t) => /Consumer ISP/.test(t)));

      await page.locator('select[name="status"]').selectOption("");
      await page.locator('select[name="network_type"]').selectOption(
        "business",
      );
      await waitFor(
        async () => /of 5 matching results/.test(await shownLine(page) ?? ""),
        10_000,
        "5 business rows",
      );
      await page.locator('select[name="network_type"]').selectOption("");
      await page.locator('input[name="q"]').fill("google");
      await waitFor(
        async () => /of 10 matching results/.test(await shownLine(page) ?? ""),
        10_000,
        "10 Google rows",
      );
      const ips = await page.locator(".results-table tbody td.ip")
        .allTextContents();
      assert.deepEqual(new Set(ips), new Set(["8.8.8.8", "8.8.4.4"]));
      await page.locator('input[name="q"]').fill("no such company");
      await page.getByText("No rows match these filters.").waitFor();
      await screenshot(page, "results-preview-filters");
      assert.deepEqual(errors, []);
      await page.close();
    }
  },
);

Deno.test(
  "processing view: the summary grows while a job runs",
  OPTIONS,
  async () => {
    // The summary grows a chunk at a time; after its first two (100 and
    // 800 rows), a Domain job's chunks are DNS_CHUNK_ROWS.
    const fixture = await startSlowDnsServer({ DNS_CHUNK_ROWS: "2000" });
    const { server } = fixture;
    const browser = await launchBrowser();
    try {
      const rows = ["ip_address,n"];
      for (let i = 0; i < 100_000; i++) {
        rows.push(`81.2.${(i >> 8) & 255}.${i & 255},${i}`);
      }
      const job = await createJob(
        server.url,
        "slow.csv",
        rows.join("\n") + "\n",
        { includeDomain: 1 },
      );
      const { page, errors } = await visitorPage(browser, server.url, {
        viewport: { width: 375, height: 900 },
      });
      await page.goto(`${server.url}/?jobId=${job.id}`);
      await page.getByRole("heading", { name: "Summary (so far)" }).waitFor({
        timeout: 20_000,
      });
      const total = async () =>
        Number(
          (await page.getByTestId("rows-total").locator(".tile-value")
            .textContent() ?? "")
            .replaceAll(",", ""),
        );
      const first = await waitFor(total, 15_000, "rows in the summary");
      // The estimate waits for a pace rather than say nothing is left.
      const remaining = page.locator(".details-grid div")
        .filter({ hasText: "Est. Time Remaining" }).locator("dd");
      assert.notEqual(await remaining.textContent(), "00:00");
      // Refreshed as the job's rows grow.
      await waitFor(
        async () => (await total()) > first,
        10_000,
        "the summary to grow",
      );
      // "Processed X of Y" and the summary's rows are the same count, and
      // Filtered IPs the summary's rows left out.
      const processed = () =>
        figure(page, 'section[aria-label="Overall progress"] p');
      const leftOut = async () =>
        await figure(
          page,
          '[data-testid="rows-left-out-consumer_isp"] .tile-value',
        ) +
        await figure(page, '[data-testid="rows-left-out-mobile"] .tile-value');
      const filteredIps = () =>
        figure(
          page,
          '.details-grid div:has(dt:text-is("Filtered IPs (ISPs)")) dd',
        );
      await waitFor(
        async () => {
          const [p1, rows, out, filtered, p2] = [
            await processed(),
            await total(),
            await leftOut(),
            await filteredIps(),
            await processed(),
          ];
          return p1 === p2 && rows === p1 && out === filtered;
        },
        20_000,
        "Processed, Rows and Filtered to agree",
      );
      const scroll = await page.evaluate<number>(
        "document.documentElement.scrollWidth",
      );
      assert.ok(scroll <= 375, `${scroll}px wide at 375px`);
      await screenshot(page, "processing-summary-375");
      assert.deepEqual(errors, []);
      const cancel = await sessionFetch(
        `${server.url}/api/jobs/${job.id}/cancel`,
        {
          method: "POST",
        },
      );
      await cancel.body?.cancel();
      await page.close();
    } finally {
      await browser.close();
      await fixture.stop();
    }
  },
);
