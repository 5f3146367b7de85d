// Notifications never cover what a person reads, at 1280 and 375 px: "File
// uploaded successfully" beside the configure step and its first rows,
// "Processing complete" beside the results. At 375 px the configure step
// shows the chosen IP column whole, however wide the file.

import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { browserTest, NO_DNS, screenshot, writeCsv } from "./browser.ts";

/** A web server log as people export it: the address is not the first column. */
function accessLogCsv(rows: number): string {
  const ips = ["8.8.8.8", "81.2.69.142", "1.1.1.1", "24.0.0.1", "9.9.9.9"];
  return [
    "timestamp,method,path,status,bytes,client_ip,user_agent,referrer",
    ...Array.from({ length: rows }, (_, i) =>
      [
        `2024-03-0${1 + (i % 9)}T10:${String(i % 60).padStart(2, "0")}:00Z`,
        i % 3 ? "GET" : "POST",
        `/products/category/item-${i}/details`,
        i % 7 ? "200" : "404",
        String(1000 + i * 37),
        ips[i % ips.length],
        `"Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/12${i % 10}.0"`,
        "https://www.example.com/campaign/spring",
      ].join(",")),
  ].join("\n") + "\n";
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width &&
  a.y < b.y + b.height && b.y < a.y + a.height;

/** The visible elements of `what` that the open notification covers. */
async function covered(page: Page, what: Locator): Promise<string[]> {
  const toast = await page.getByTestId("toast").boundingBox();
  assert.ok(toast, "a notification is shown");
  const hits: string[] = [];
  for (const element of await what.all()) {
    if (!await element.isVisible()) continue;
    const box = await element.boundingBox();
    if (box && overlaps(toast, box)) {
      hits.push((await element.innerText()).slice(0, 60).replace(/\s+/g, " "));
    }
  }
  return hits;
}

/** What a person reads on the configure step and the results view. */
const READ =
  "main h1, main h2, main p, main li, main label, main select, main button, " +
  "main tr, main .tile, main figcaption";

for (const width of [1280, 375]) {
  browserTest(
    `notifications cover nothing at ${width} px`,
    NO_DNS,
    async (server, browser) => {
      const page = await browser.newPage({
        viewport: { width, height: width < 600 ? 740 : 800 },
        isMobile: width < 600,
        hasTouch: width < 600,
      });
      await page.goto(server.url + "/");
      await page.getByText(/Maximum file size/).waitFor();
      await page.locator('input[type="file"]').setInputFiles(
        await writeCsv("access_log.csv", accessLogCsv(40)),
      );
      await page.getByText("File uploaded successfully").waitFor();
      await page.getByRole("heading", { name: "Configuration Options" })
        .waitFor();
      await page.screenshot({
        path: `test-output/screenshots/notify-uploaded-${width}.png`,
      });
      assert.deepEqual(await covered(page, page.locator(READ)), []);

      // The chosen IP column is whole inside the screen.
      const chosen = page.locator(".upload-preview th.chosen-column");
      await chosen.waitFor();
      const box = await chosen.boundingBox();
      assert.ok(box);
      assert.ok(
        box.x >= 0 && box.x + box.width <= width,
        `the IP column spans ${box.x}..${box.x + box.width} at ${width} px`,
      );
      for (const cell of await page.locator("td.chosen-column").all()) {
        const text = await cell.innerText();
        assert.match(text, /^\d+\.\d+\.\d+\.\d+$/, "whole addresses");
      }

      await page.getByRole("button", { name: "Start Processing" }).click();
      await page.getByText("Processing complete").first().waitFor({
        timeout: 60_000,
      });
      await page.getByRole("heading", { name: "Enrichment Results" })
        .waitFor();
      await page.getByTestId("toast").waitFor();
      await page.screenshot({
        path: `test-output/screenshots/notify-complete-${width}.png`,
      });
      assert.deepEqual(await covered(page, page.locator(READ)), []);
      await screenshot(page, `notify-complete-${width}-full`);
    },
  );
}
