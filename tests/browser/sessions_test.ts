// Visitor sessions in Chromium: two browser contexts (two visitors, each
// with its own cookie) each see only their own jobs in History, and one's
// results URL tells the other, at 1280 and 375 px, that jobs are private to
// the session that started them, and how an operator shares them. Then the
// ACCESS_PASSWORD sign-in page, as a visitor meets it: in the app's
// stylesheet, with no axe-core (WCAG 2.1 A/AA) violation.

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { BrowserContext } from "playwright-core";
import { assertNoAxeViolations } from "./axe.ts";
import { browserTest, sampleCsv, screenshot, waitFor } from "./browser.ts";

const ENV = { DNS_SERVERS: "127.0.0.1:9", DNS_TIMEOUT_MS: "50" };

/** Uploads and starts a job with the context's own cookie, as its pages do. */
async function jobOf(context: BrowserContext, baseUrl: string, name: string) {
  const upload = await context.request.post(`${baseUrl}/api/upload`, {
    multipart: {
      file: {
        name,
        mimeType: "text/csv",
        buffer: Buffer.from(sampleCsv()),
      },
    },
  });
  assert.equal(upload.status(), 201);
  const { fileName } = await upload.json();
  const job = await context.request.post(`${baseUrl}/api/enrich`, {
    data: { fileName, ipColumnName: "ip_address" },
  });
  assert.equal(job.status(), 201);
  return (await job.json()).id as number;
}

browserTest(
  "two visitors each see only their own jobs",
  ENV,
  async (server, browser) => {
    const viewport = { width: 1280, height: 900 };
    const alice = await browser.newContext({ viewport });
    const bob = await browser.newContext({ viewport });
    const aliceJob = await jobOf(alice, server.url, "alice.csv");
    const bobJob = await jobOf(bob, server.url, "bob.csv");

    for (
      const [context, own, other] of [
        [alice, aliceJob, bobJob],
        [bob, bobJob, aliceJob],
      ] as const
    ) {
      const page = await context.newPage();
      await page.goto(`${server.url}/history`);
      await page.locator(`tr[data-job-id="${own}"]`).waitFor();
      assert.equal(await page.locator("tr[data-job-id]").count(), 1);
      assert.equal(await page.locator(`tr[data-job-id="${other}"]`).count(), 0);

      await page.goto(`${server.url}/results/${other}`);
      await page.getByRole("heading", {
        name: `Job ${other} is not available here`,
      }).waitFor({ timeout: 30_000 });
      await page.goto(`${server.url}/results/${own}`);
      await page.getByRole("heading", { name: "Enrichment Results" })
        .waitFor({ timeout: 30_000 });
      // The history's "Continue Monitoring" address says the same.
      await page.goto(`${server.url}/?jobId=${other}`);
      await page.getByRole("heading", {
        name: `Job ${other} is not available here`,
      }).waitFor({ timeout: 30_000 });
      assert.equal(await page.getByText(/Could not load job/).count(), 0);
    }
    const page = alice.pages()[0];
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${server.url}/results/${bobJob}`);
      await page.getByText("each belongs to the browser session that started")
        .waitFor();
      await page.getByText("JOBS_VISIBILITY=shared").waitFor();
      // Neither a "try again later" nor an error toast: nothing will change.
      assert.equal(await page.getByText(/try again/i).count(), 0);
      assert.equal(await page.getByTestId("toast").count(), 0);
      await screenshot(page, `sessions-other-visitors-job-${width}`);
    }
  },
);

browserTest("ACCESS_PASSWORD: the sign-in page, then the app", {
  ...ENV,
  ACCESS_PASSWORD: "open sesame, please",
}, async (server, browser) => {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 900 },
  });
  await page.goto(`${server.url}/history`);
  assert.match(page.url(), /\/signin\?next=%2Fhistory$/);
  // Styled like the app: its stylesheet (Pico CSS) loads before sign-in.
  const signIn = page.getByRole("button", { name: "Sign in" });
  assert.equal(
    await signIn.evaluate((button) =>
      button.ownerDocument.defaultView!.getComputedStyle(button)
        .getPropertyValue("--pico-background-color")
        .trim() !== ""
    ),
    true,
    "Pico CSS styles the sign-in button",
  );
  await assertNoAxeViolations(page, "the sign-in page");
  await screenshot(page, "sessions-sign-in");
  await page.getByLabel("Access password").fill("wrong");
  await signIn.click();
  await page.getByRole("alert").filter({
    hasText: "not the access password",
  })
    .waitFor();
  await assertNoAxeViolations(page, "the sign-in page with its error");
  await page.getByLabel("Access password").fill("open sesame, please");
  await page.getByRole("button", { name: "Sign in" }).click();
  await waitFor(() => new URL(page.url()).pathname === "/history");
  await page.getByText("You haven't processed any files yet").waitFor();
  await screenshot(page, "sessions-signed-in-history");

  // Signed out behind the app's back (cookie gone, or the password
  // changed): History's next refresh (every 5 s) gets 401, and the page
  // reloads into the lock's redirect to /signin.
  await page.context().clearCookies();
  await waitFor(() => new URL(page.url()).pathname === "/signin");
});
