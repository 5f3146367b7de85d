// At phone width (375 px) History and the results preview read as cards:
// nothing wider than the screen, no inner scroller, every action in view,
// file names whole; the map legend's first tick label is not clipped.

import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import {
  browserTest,
  createJob,
  NO_DNS,
  sampleCsv,
  screenshot,
  visitorPage,
  waitForCompleted,
} from "./browser.ts";

const WIDTH = 375;
const FILE_NAME = "customer_ip_addresses_2024_export.csv";

async function assertNoHorizontalOverflow(page: Page, what: string) {
  const width = await page.evaluate<number>(
    "document.documentElement.scrollWidth",
  );
  assert.ok(width <= WIDTH, `${what}: ${width}px wide at ${WIDTH}px`);
  // No inner scroller either: each table region shows all it holds.
  const scrollers = await page.evaluate<string[]>(`[...document
    .querySelectorAll('[role="region"]')]
    .filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.getAttribute("aria-label"))`);
  assert.deepEqual(scrollers, [], `${what}: regions that scroll sideways`);
}

/** Visible, and wholly inside the screen's width. */
async function assertInView(locator: Locator, what: string) {
  await locator.scrollIntoViewIfNeeded();
  assert.ok(await locator.isVisible(), `${what} is visible`);
  const box = await locator.boundingBox();
  assert.ok(box, `${what} has a box`);
  assert.ok(
    box.x >= 0 && box.x + box.width <= WIDTH,
    `${what} spans ${box.x}..${box.x + box.width}px`,
  );
}

/**
 * The characters after which an element's text wraps onto a new line:
 * ["_"] for "customer_ / ip_addresses.csv"; [] on one line.
 */
function wrapsAfter(locator: Locator): Promise<string[]> {
  return locator.evaluate((el) => {
    const doc = el.ownerDocument;
    const chars: { ch: string; top: number }[] = [];
    const walker = doc.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (let i = 0; i < text.length; i++) {
        const range = doc.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        chars.push({ ch: text[i], top: range.getBoundingClientRect().top });
      }
    }
    return chars.slice(1).flatMap((c, i) =>
      Math.abs(c.top - chars[i].top) > 2 ? [chars[i].ch] : []
    );
  });
}

browserTest(
  "phone width: history and results preview as cards",
  NO_DNS,
  async (server, browser) => {
    const job = await createJob(
      server.url,
      FILE_NAME,
      sampleCsv(["8.8.8.8", "81.2.69.142", "23.24.0.1", "1.1.1.1"]),
      { includeDomain: 1 },
    );
    await waitForCompleted(server.url, job.id);
    const { page } = await visitorPage(browser, server.url, {
      viewport: { width: WIDTH, height: 740 },
    });

    await page.goto(`${server.url}/history`);
    const row = page.locator(`tr[data-job-id="${job.id}"]`);
    await row.waitFor();
    await assertNoHorizontalOverflow(page, "history");
    for (const name of ["View", "Download"]) {
      await assertInView(
        row.getByRole("link", { name: new RegExp(`^${name}`) }),
        `history's ${name}`,
      );
    }
    const fileName = row.locator("td.file-name");
    assert.equal(await fileName.textContent(), FILE_NAME);
    // Too long for one line here: it wraps only after a separator.
    const wraps = await wrapsAfter(fileName);
    assert.ok(wraps.length > 0, "the long name wraps");
    for (const ch of wraps) {
      assert.ok("_-.".includes(ch), `the file name wraps after "${ch}"`);
    }
    // Each job is a card: its cells stacked, one above the other.
    const cells = await row.locator("td").all();
    const tops = await Promise.all(
      cells.map(async (cell) => (await cell.boundingBox())!.y),
    );
    assert.deepEqual(tops, [...tops].sort((a, b) => a - b));
    assert.equal(new Set(tops).size, cells.length, "one cell a line");
    await screenshot(page, "phone-history");

    await page.goto(`${server.url}/results/${job.id}`);
    const preview = page.locator(".results-table tbody tr");
    await preview.first().waitFor();
    await page.locator(".summary-plot svg").nth(3).waitFor();
    await assertNoHorizontalOverflow(page, "results");
    for (const label of ["IP Address", "Company", "ISP Filtered", "ASN"]) {
      await assertInView(
        preview.first().locator(`td[data-label="${label}"]`),
        `the preview's ${label}`,
      );
    }
    await assertInView(
      page.getByRole("button", { name: "Download CSV" }),
      "Download CSV",
    );

    // The map legend's first tick label ("0") lies inside its legend.
    const clipped = await page.evaluate<number>(`(() => {
      const legend = document.querySelectorAll(".summary-plot")[3]
        .querySelector("svg");
      const tick = legend.querySelector("g[transform] text");
      return tick.getBoundingClientRect().left -
        legend.getBoundingClientRect().left;
    })()`);
    assert.ok(clipped >= 0, `the legend's first tick starts at ${clipped}px`);
    await screenshot(page, "phone-results");
  },
);
