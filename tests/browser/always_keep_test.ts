// The configuration step's "Always keep" box in a real browser: a listed AS
// stays in the download with the reason in the preview's tooltip, and an
// entry that is neither an AS number nor a CIDR is refused, named.

import assert from "node:assert/strict";
import { sessionFetch } from "../helpers/cookie_jar.ts";
import { MODEL } from "../../server/classification/model.ts";
import {
  asTestVisitor,
  browserTest,
  downloadedRows,
  NO_DNS,
  screenshot,
  writeCsv,
} from "./browser.ts";

const COMCAST = "23.24.0.1"; // AS7922, a curated consumer AS

browserTest(
  "Always keep keeps a listed AS",
  NO_DNS,
  async (server, browser) => {
    // The page and this test's own requests are one visitor, so the job
    // list below is the list the page's session sees.
    const context = await browser.newContext({ acceptDownloads: true });
    await asTestVisitor(context, server.url);
    const page = await context.newPage();
    const csvPath = await writeCsv(
      "keep.csv",
      `ip_address,n\n${COMCAST},1\n8.8.8.8,2\n`,
    );
    const box = "Always keep (AS numbers or CIDRs, one per line)";

    // A bad entry: the job is not started and the toast names the entry.
    await page.goto(server.url + "/");
    await page.locator('input[type="file"]').setInputFiles(csvPath);
    await page.getByLabel(box).fill("AS7922\nbanana");
    await page.getByRole("button", { name: "Start Processing" }).click();
    await page.getByText(/not an AS number or CIDR: banana/).first().waitFor();
    const none = await (await sessionFetch(`${server.url}/api/jobs`)).json();
    assert.equal(none.length, 0);

    await page.getByLabel(box).fill("AS7922");
    await screenshot(page, "always-keep-config");
    await page.getByRole("button", { name: "Start Processing" }).click();
    await page.getByText("Processing complete").first().waitFor({
      timeout: 30_000,
    });
    const cells = page.locator(".results-table tbody tr", { hasText: COMCAST })
      .locator("td");
    const type = cells.nth(5);
    assert.equal((await type.textContent())?.trim(), "Consumer ISP");
    // The reason, and the confidence of the curated list's answer.
    const sure = (Math.round(MODEL.listConfidence * 100) / 100).toFixed(2);
    assert.equal(
      await type.getAttribute("title"),
      `always keep (curated consumer AS) (confidence ${sure})`,
    );
    const cell = cells.nth(6);
    assert.equal((await cell.textContent())?.trim(), "No");
    assert.equal(
      await cell.getAttribute("title"),
      `consumer_isp: always keep (curated consumer AS) (confidence ${sure})`,
    );

    const [header, ...rows] = await downloadedRows(
      page,
      page.getByRole("button", { name: "Download CSV" }),
    );
    const kept = rows.find((row) => row[0] === COMCAST);
    assert.ok(kept, "the listed AS is in the download");
    assert.equal(
      kept[header.indexOf("classification_reason")],
      "always keep (curated consumer AS)",
    );
  },
);
