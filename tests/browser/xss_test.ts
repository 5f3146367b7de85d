// A file name and cells holding HTML and script show as text in the browser:
// no script runs (React escapes text; the Content-Security-Policy forbids
// inline script as a second line of defence).

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { browserTest, NO_DNS, screenshot } from "./browser.ts";

const IMG = `<img src=x onerror="window.__xss='img'">`;
const SCRIPT = `<script>window.__xss='script'</script>`;

browserTest(
  "HTML in file names and cells shows as text; no script runs",
  NO_DNS,
  async (server, browser) => {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 900 },
    });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      dialog.dismiss().catch(() => {});
    });
    const csv = [
      "ip_address,note",
      `"${IMG.replaceAll('"', '""')}",a`,
      `${SCRIPT},b`,
      `8.8.8.8,"${IMG.replaceAll('"', '""')}"`,
    ].join("\n") + "\n";
    // Browsers percent-encode quotes in multipart file names: none here.
    const fileName = "<img src=x onerror=alert('name')>.csv";

    await page.goto(server.url + "/");
    await page.getByRole("heading", { name: "Upload IP Addresses" })
      .waitFor();
    await page.locator('input[type="file"]').setInputFiles({
      name: fileName,
      mimeType: "text/csv",
      buffer: Buffer.from(csv),
    });
    await page.getByRole("button", { name: "Start Processing" }).click();
    await page.getByRole("heading", { name: "Enrichment Results" }).waitFor({
      timeout: 30_000,
    });
    // The invalid "addresses" are shown in the preview as text.
    await page.getByText(IMG, { exact: false }).first().waitFor();
    await page.getByText(SCRIPT, { exact: false }).first().waitFor();
    await screenshot(page, "50-xss-results");

    await page.goto(server.url + "/history");
    await page.getByText(fileName).first().waitFor();
    await screenshot(page, "51-xss-history");

    assert.deepEqual(dialogs, []);
    assert.equal(
      await page.evaluate(() => (globalThis as { __xss?: string }).__xss),
      undefined,
    );
    assert.equal(await page.locator("img[src=x]").count(), 0);
  },
);
