// Uploads as users have them, in a real browser against the real server:
// the progress bar and Cancel upload on a multi-MB file (upload throttled
// through the DevTools protocol so the bar can be seen), .csv.gz and .zip
// uploads that end in completed jobs, and the configuration step's preview
// of the first five rows with the IP column picked by its values.

import assert from "node:assert/strict";
import { sessionFetch } from "../helpers/cookie_jar.ts";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import type { Page } from "playwright-core";
import {
  browserTest,
  NO_DNS,
  sampleCsv,
  screenshot,
  visitorPage,
  waitFor,
} from "./browser.ts";

async function writeBytes(name: string, bytes: Uint8Array): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "ipenrich-up-" });
  await Deno.writeFile(join(dir, name), bytes);
  return join(dir, name);
}

async function gzip(text: string): Promise<Uint8Array> {
  const out = new Blob([text]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** Upload at `bytesPerSecond` (Chromium's network emulation). */
async function throttleUpload(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return cdp;
}

async function uploadThroughUi(page: Page, path: string) {
  await page.locator('input[type="file"]').setInputFiles(path);
  await page.getByRole("heading", { name: "Configuration Options" })
    .waitFor({ timeout: 30_000 });
}

async function startAndFinish(page: Page) {
  await page.getByRole("button", { name: "Start Processing" }).click();
  await page.getByRole("heading", { name: "Enrichment Results" })
    .waitFor({ timeout: 30_000 });
  await page.getByText("Processing complete").first().waitFor();
}

browserTest(
  "upload progress bar and Cancel upload",
  NO_DNS,
  async (server, browser) => {
    const uploads = join(server.dataDir, "uploads");
    const stored = () => [...Deno.readDirSync(uploads)].length;
    const { page, errors } = await visitorPage(browser, server.url, {
      viewport: { width: 375, height: 800 },
    });
    // Some 6 MB: 400,000 rows of "8.8.8.8,nnnnnn".
    const rows = Array.from(
      { length: 400_000 },
      (_, i) => `8.8.8.8,${100000 + i}`,
    );
    const big = await writeBytes(
      "big.csv",
      strToU8(["ip_address,n", ...rows].join("\n") + "\n"),
    );
    const size = (await Deno.stat(big)).size;
    assert.ok(size > 5 * 1024 * 1024, String(size));
    const sizeText = `${(size / 1024 / 1024).toFixed(1)} MB`;

    await page.goto(server.url + "/");
    await page.getByRole("heading", { name: "Upload IP Addresses" }).waitFor();
    await Deno.mkdir(uploads, { recursive: true });
    const before = stored();

    // Cancel: the bar goes, no error is shown, the server keeps no file.
    const cdp = await throttleUpload(page, 512 * 1024);
    await page.locator('input[type="file"]').setInputFiles(big);
    const bar = page.getByRole("progressbar", { name: "Upload progress" });
    await bar.waitFor();
    await page.getByText(new RegExp(`^\\d+% · .+ of ${sizeText}$`)).waitFor();
    await waitFor(
      async () => Number(await bar.getAttribute("value")) > 0,
      30_000,
      "upload progress above 0",
    );
    const sent = Number(await bar.getAttribute("value"));
    assert.ok(sent > 0 && sent < size, `progress value ${sent}`);
    const uploadWidth = await page.evaluate<number>(
      "document.documentElement.scrollWidth",
    );
    assert.ok(uploadWidth <= 375, `upload step is ${uploadWidth}px wide`);
    await screenshot(page, "60-upload-progress");
    await page.getByRole("button", { name: "Cancel upload" }).click();
    await bar.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Browse Files" }).waitFor();
    assert.equal(await page.getByText("Upload failed").count(), 0);
    await waitFor(
      () => stored() === before,
      30_000,
      "the partial upload removed",
    );

    // A whole upload: the bar fills before the configuration step.
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 4 * 1024 * 1024,
    });
    // The 100% state lasts only until the answer: record what was shown.
    await page.evaluate(`(() => {
      globalThis.progressShown = [];
      new MutationObserver(() => {
        const text = document.querySelector(".upload-progress p");
        if (text) globalThis.progressShown.push(text.textContent);
      }).observe(document.body, {
        subtree: true, childList: true, characterData: true,
      });
    })()`);
    await page.locator('input[type="file"]').setInputFiles(big);
    await page.getByRole("heading", { name: "Configuration Options" })
      .waitFor({ timeout: 30_000 });
    const shown = await page.evaluate<string[]>("globalThis.progressShown");
    // Percent and bytes grow to the end (the last event and the answer may
    // come in one task, so 100% itself is not always painted).
    const percents = shown.map((text) => Number(/^(\d+)%/.exec(text)?.[1]));
    assert.ok(new Set(percents).size >= 3, JSON.stringify(shown));
    assert.deepEqual(percents, [...percents].sort((a, b) => a - b));
    assert.ok(percents.at(-1)! >= 80, JSON.stringify(shown.slice(-3)));
    assert.ok(shown.every((text) => text.endsWith(` of ${sizeText}`)));
    assert.equal(stored(), before + 1);
    assert.deepEqual(errors, []);
  },
);

browserTest(
  ".csv.gz and .zip uploads complete; the preview highlights the IP column",
  NO_DNS,
  async (server, browser) => {
    const { page, errors } = await visitorPage(browser, server.url, {
      viewport: { width: 375, height: 800 },
    });

    // The header names point at "ip_note"; the values say "visitor".
    const csv = [
      "ip_note,visitor,referrer_with_a_long_name,landing_page_path",
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `seen twice,${
            ["8.8.8.8", "81.2.69.142"][i % 2]
          },https://www.example.com/campaign/${i},/pricing/enterprise/${i}`,
      ),
    ].join("\n");
    await page.goto(server.url + "/");
    await uploadThroughUi(
      page,
      await writeBytes("visits.csv.gz", await gzip(csv)),
    );
    await page.getByText("visits.csv.gz · 8 rows").waitFor();
    assert.equal(
      await page.getByLabel("IP Address Column").inputValue(),
      "visitor",
    );
    const preview = page.locator(".upload-preview");
    assert.equal(await preview.locator("tbody tr").count(), 5);
    assert.equal(
      await preview.locator("th.chosen-column").textContent(),
      "visitor",
    );
    assert.equal(await preview.locator("td.chosen-column").count(), 5);
    assert.equal(
      await preview.locator("td.chosen-column").first().textContent(),
      "8.8.8.8",
    );
    assert.ok(!await page.getByLabel("Resolve host names").isChecked());
    // Readable at 375 px: the table scrolls in its box, not the page.
    const pageWidth = await page.evaluate<number>(
      "document.documentElement.scrollWidth",
    );
    assert.ok(pageWidth <= 375, `page is ${pageWidth}px wide`);
    await screenshot(page, "61-config-preview-375");

    // Choosing another column moves the highlight.
    await page.getByLabel("IP Address Column").selectOption("ip_note");
    assert.equal(
      await preview.locator("th.chosen-column").textContent(),
      "ip_note",
    );
    await page.getByLabel("IP Address Column").selectOption("visitor");
    await startAndFinish(page);
    await page.getByText(/Successfully processed \d+ of 8 IP addresses/)
      .waitFor();
    await screenshot(page, "62-gzip-job-done");

    // A .zip with one CSV inside.
    await page.getByRole("button", { name: "Process Another File" }).click();
    const zip = zipSync({ "export/visitors.csv": strToU8(sampleCsv()) });
    await uploadThroughUi(page, await writeBytes("export.zip", zip));
    await page.getByText("export.zip · 4 rows").waitFor();
    assert.equal(
      await page.getByLabel("IP Address Column").inputValue(),
      "ip_address",
    );
    await startAndFinish(page);
    await page.getByText(/Successfully processed \d+ of 4 IP addresses/)
      .waitFor();

    const jobs = await (await sessionFetch(`${server.url}/api/jobs`)).json();
    assert.deepEqual(
      jobs.map((job: { status: string }) => job.status),
      ["completed", "completed"],
    );
    assert.deepEqual(errors, []);
  },
);
