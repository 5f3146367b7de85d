// The data's age in the real app in Chromium: the API page lists each
// database with its version, build date and licence, marking data older
// than DATA_MAX_AGE_DAYS; a job's results page names the databases the
// job ran on.

import assert from "node:assert/strict";
import {
  asTestVisitor,
  browserTest,
  createJob,
  NO_DNS,
  waitForCompleted,
} from "./browser.ts";

browserTest("data sources: API page and a job's results", {
  ...NO_DNS,
  DATA_MAX_AGE_DAYS: "1",
}, async (server, browser) => {
  const config = await (await fetch(`${server.url}/api/config`)).json();
  const geo = config.data.databases[0];
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/api`);
  const rows = page.locator("#data-sources tbody tr");
  await rows.first().waitFor();
  assert.equal(await rows.count(), config.data.databases.length);
  const first = await rows.first().textContent();
  for (
    const text of [
      "DB-IP Lite City",
      geo.version,
      geo.builtAt.slice(0, 10),
      "CC BY 4.0",
      "stale",
    ]
  ) assert.ok(first!.includes(text), `${text} in ${first}`);
  const text = await page.locator("#data-sources").textContent();
  assert.ok(text!.includes("No update has run on this server yet."));

  await asTestVisitor(context, server.url);
  const { id } = await createJob(
    server.url,
    "data.csv",
    "ip_address\n8.8.8.8\n",
  );
  await waitForCompleted(server.url, id);
  await page.goto(`${server.url}/results/${id}`);
  const line = page.getByTestId("job-data-version");
  await line.waitFor({ state: "attached" });
  assert.equal((await line.textContent())?.trim(), config.data.version);
});
