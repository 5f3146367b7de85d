// axe-core (WCAG 2.1 A and AA rules) finds nothing on any page of the app or
// any step of its flow: content pages, 404, upload, configure (with a
// notification showing), processing, results, history, each at desktop and
// phone widths, each once its animations have ended (axe.ts). The sign-in
// page is checked in sessions_test.ts.

import assert from "node:assert/strict";
import { CLIENT_PAGES } from "../../shared/pages.ts";
import { sessionFetch } from "../helpers/cookie_jar.ts";
import { assertNoAxeViolations } from "./axe.ts";
import {
  createJob,
  sampleCsv,
  visitorPage,
  waitForCompleted,
  writeCsv,
} from "./browser.ts";
import { distinctIps, slowBrowserTest } from "./slow_resolver.ts";

slowBrowserTest(
  "axe-core: no WCAG 2.1 A/AA violation on any page or step",
  async (server, browser) => {
    const { page } = await visitorPage(browser, server.url);

    // A finished job with every kind of row, for results and history.
    const done = await createJob(
      server.url,
      "customer_ip_addresses_2024_export.csv",
      sampleCsv(["8.8.8.8", "81.2.69.142", "23.24.0.1", "bogus", "1.1.1.1"]),
    );
    await waitForCompleted(server.url, done.id);

    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      const at = (what: string) => `${what} at ${width}px`;
      for (
        const { path } of CLIENT_PAGES.filter((page) => page.prerender)
      ) {
        await page.goto(server.url + path);
        await page.locator("h1").first().waitFor();
        await page.waitForLoadState("networkidle");
        await assertNoAxeViolations(page, at(path));
      }
      await page.goto(server.url + "/no-such-page");
      await page.getByRole("heading", { name: "404 Page Not Found" })
        .waitFor();
      await assertNoAxeViolations(page, at("the 404 page"));

      // The flow: upload, configure (a notification showing), processing.
      await page.goto(server.url + "/");
      await page.getByRole("heading", { name: "Upload IP Addresses" })
        .waitFor();
      await page.locator('input[type="file"]').setInputFiles(
        await writeCsv("slow.csv", sampleCsv(distinctIps(600))),
      );
      await page.getByRole("heading", { name: "Configuration Options" })
        .waitFor();
      // The pointer on the notification holds it (it would leave after
      // 5 s), so axe checks it, once its entrance has ended.
      const toast = page.getByTestId("toast").filter({
        hasText: "File uploaded successfully",
      });
      await toast.hover();
      await assertNoAxeViolations(page, at("the configure step"));
      assert.equal(
        await toast.evaluate((e) =>
          e.ownerDocument.defaultView!.getComputedStyle(e).opacity
        ),
        "1",
        "the notification was checked fully shown",
      );
      await page.mouse.move(0, 0);
      await page.getByRole("button", { name: "Start Processing" }).click();
      await page.getByText(/Processed [1-9]\d* of 600 IP addresses/)
        .waitFor({ timeout: 20_000 });
      await page.getByRole("heading", { name: "Summary (so far)" }).waitFor();
      await assertNoAxeViolations(page, at("the processing step"));
      const running = Number(new URL(page.url()).searchParams.get("jobId"));
      const cancel = await sessionFetch(
        `${server.url}/api/jobs/${running}/cancel`,
        { method: "POST" },
      );
      await cancel.body?.cancel();

      // Results (charts and map drawn) and history.
      await page.goto(`${server.url}/results/${done.id}`);
      await page.getByTestId("rows-total").waitFor();
      await page.locator(".summary-plot svg").nth(3).waitFor();
      await assertNoAxeViolations(page, at("the results"));
      await page.goto(`${server.url}/history`);
      await page.getByRole("link", { name: /^View results of / }).first()
        .waitFor();
      await assertNoAxeViolations(page, at("the history"));
    }
  },
);
