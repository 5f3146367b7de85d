// The configuration step's "Registration data (online)" box in a real
// browser: shown only when the server has RDAP on, with an upper-bound
// estimate for the file; checked, the job asks the loopback RDAP server, the
// customer block's company is in the download and the page counts the
// registration lookups. With RDAP off the box is not there.

import assert from "node:assert/strict";
import { startRdapServer } from "../helpers/rdap_server.ts";
import { startServer } from "../helpers/server.ts";
import {
  asTestVisitor,
  browserTest,
  downloadedRows,
  launchBrowser,
  NO_DNS,
  screenshot,
  visitorPage,
  writeCsv,
} from "./browser.ts";

const OPTIONS = { sanitizeOps: false, sanitizeResources: false };
const ACME = "12.34.56.10"; // ACME CORP's /26 inside AS7018 (rdap_fixtures.ts)
const LABEL = "Registration data (online)";

Deno.test(
  "Registration data: offered with RDAP on, used",
  OPTIONS,
  async () => {
    const rdap = startRdapServer();
    const server = await startServer({
      env: { ...NO_DNS, RDAP: "on", RDAP_URL: rdap.url, RDAP_RATE: "2" },
    });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ acceptDownloads: true });
      await asTestVisitor(context, server.url);
      const page = await context.newPage();
      const csvPath = await writeCsv(
        "registration.csv",
        `ip_address,n\n${ACME},1\n12.1.2.3,2\n8.8.8.8,3\n`,
      );
      await page.goto(server.url + "/");
      await page.locator('input[type="file"]').setInputFiles(csvPath);
      const box = page.getByLabel(LABEL);
      await box.waitFor();
      // 3 rows at 2 a second: an upper bound of 2 seconds.
      await page.getByText(/Upper bound: at most 2 seconds more/).waitFor();
      await box.check();
      await screenshot(page, "registration-config");
      await page.getByRole("button", { name: "Start Processing" }).click();
      await page.getByText("Processing complete").first().waitFor({
        timeout: 30_000,
      });
      await page.getByTestId("registration-lookups").getByText(
        /Registration data: 2 asked · 0 from the cache · 0 failed/,
      ).waitFor();
      const [header, ...rows] = await downloadedRows(
        page,
        page.getByRole("button", { name: "Download CSV" }),
      );
      const acme = rows.find((row) => row[0] === ACME);
      assert.ok(acme, "the customer's row is kept");
      assert.equal(acme[header.indexOf("company")], "ACME CORP");
      assert.equal(acme[header.indexOf("registered_org")], "ACME CORP");
      assert.equal(rdap.count(), 2);
    } finally {
      await browser.close();
      await server.stop();
      await rdap.close();
    }
  },
);

browserTest(
  "Registration data: no box while RDAP is off",
  NO_DNS,
  async (server, browser) => {
    const { page } = await visitorPage(browser, server.url);
    const csvPath = await writeCsv("off.csv", `ip_address\n${ACME}\n`);
    await page.goto(server.url + "/");
    await page.locator('input[type="file"]').setInputFiles(csvPath);
    await page.getByRole("button", { name: "Start Processing" }).waitFor();
    // The settings have been read (the upload limit shows), and no box.
    const config = await (await fetch(`${server.url}/api/config`)).json();
    assert.equal(config.rdap.enabled, false);
    assert.equal(await page.getByLabel(LABEL).count(), 0);
  },
);
