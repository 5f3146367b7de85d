// Shared pieces of the browser tests: Debian's Chromium through
// playwright-core, screenshots under test-output/screenshots, small CSVs.

import assert from "node:assert/strict";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from "playwright-core";
import { parseCsv } from "../helpers/client.ts";
import { sessionFetch, visitorCookie } from "../helpers/cookie_jar.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
export const SCREENSHOT_DIR = `${ROOT}test-output/screenshots`;

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-dev-shm-usage",
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

// Reverse DNS goes nowhere: a closed loopback port with a short timeout.
export { NO_DNS } from "../helpers/http.ts";
// CSV rows as the HTTP tests read them.
export { parseCsv };

/**
 * Runs `body` with a fresh server (`env`) and browser, closing both after;
 * when it fails, prints what the server said and its jobs.
 */
export async function withServerAndBrowser(
  env: Record<string, string>,
  body: (server: RunningServer, browser: Browser) => Promise<void>,
): Promise<void> {
  const server = await startServer({ env });
  try {
    const browser = await launchBrowser();
    try {
      await body(server, browser);
    } catch (error) {
      const jobs = await sessionFetch(`${server.url}/api/jobs`)
        .then((r) => r.json()).catch(() => null);
      console.error(
        `server output:\n${server.output.join("\n")}\njobs: ${
          JSON.stringify(jobs, null, 1)
        }`,
      );
      throw error;
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}

/** A test (`name`) run by withServerAndBrowser with the server's `env`. */
export function browserTest(
  name: string,
  env: Record<string, string>,
  body: (server: RunningServer, browser: Browser) => Promise<void>,
): void {
  Deno.test(
    { name, sanitizeOps: false, sanitizeResources: false },
    () => withServerAndBrowser(env, body),
  );
}

/**
 * Makes a browser context the same visitor as the test's own requests
 * (tests/helpers/cookie_jar.ts): jobs belong to the session that made them,
 * so a page sees the jobs createJob() made only with that session's cookie.
 */
export async function asTestVisitor(
  context: BrowserContext,
  baseUrl: string,
): Promise<void> {
  await context.addCookies([await visitorCookie(baseUrl)]);
}

/**
 * A new page (1280x900 unless `options` say otherwise) as the test visitor
 * (asTestVisitor), with the page's uncaught errors collected in `errors`.
 */
export async function visitorPage(
  browser: Browser,
  baseUrl: string,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 900 },
    ...options,
  });
  await asTestVisitor(page.context(), baseUrl);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, errors };
}

/** The rows the summary panel's charts should show for their top entries. */
export interface SummaryTops {
  /** The top company (it also heads the bar chart's y axis) and its rows. */
  company: [string, number];
  country: [string, number];
  /** Rows of the "Hosting / cloud" network type. */
  hosting: number;
}

/**
 * Waits for the summary panel's four charts (companies, countries, network
 * types, map) and checks the labels of the first three against `tops`; the
 * four labels, for the map's own checks.
 */
export async function checkSummaryCharts(
  page: Page,
  tops: SummaryTops,
): Promise<string[]> {
  const charts = page.locator('.summary-plot [role="img"]');
  await charts.nth(3).waitFor({ timeout: 20_000 });
  assert.equal(await charts.count(), 4);
  const labels = await charts.evaluateAll((els) =>
    els.map((e) => e.getAttribute("aria-label") ?? "")
  );
  const [company, companyRows] = tops.company;
  const [country, countryRows] = tops.country;
  const top = (what: string, name: string, rows: number) =>
    `Bar chart of top ${what}, largest first: ${name} (${rows} rows)`;
  assert.ok(labels[0].startsWith(top("companies", company, companyRows)));
  assert.ok(labels[1].startsWith(top("countries", country, countryRows)));
  assert.ok(labels[2].includes(`Hosting / cloud (${tops.hosting} rows)`));
  // The top bar's label is the top company (the y axis is sorted).
  const firstTick = await page.locator(".summary-plot").first()
    .locator('g[data-part="y-axis tick label"] text').first()
    .textContent();
  assert.equal(firstTick, company);
  return labels;
}

/** Saves a full-page screenshot as test-output/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: `${SCREENSHOT_DIR}/${name}.png`,
    fullPage: true,
    animations: "disabled",
  });
}

/** Writes a CSV to a temp dir and returns its path. */
export async function writeCsv(name: string, content: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "ipenrich-csv-" });
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, content);
  return path;
}

export const PUBLIC_IPS = ["8.8.8.8", "1.1.1.1", "24.0.0.1", "81.2.69.142"];

/** A CSV of the example shape with the given IPs. */
export function sampleCsv(ips: readonly string[] = PUBLIC_IPS): string {
  return [
    "ip_address,client_id,timestamp",
    ...ips.map((ip, i) =>
      `${ip},${1001 + i},2024-01-15 10:${
        String(30 + (i % 30)).padStart(2, "0")
      }:00`
    ),
  ].join("\n") + "\n";
}

/** Clicks `control` and reads the download it starts as CSV rows. */
export async function downloadedRows(
  page: Page,
  control: Locator,
): Promise<string[][]> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    control.click(),
  ]);
  return parseCsv(await Deno.readTextFile(await download.path()));
}

/** Resolves once `check` returns a truthy value, polling; throws on timeout. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
  what = "condition",
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ""}`);
}

/** Waits until job `id` has completed (30 s at most). */
export async function waitForCompleted(url: string, id: number): Promise<void> {
  await waitFor(
    async () => {
      const job = await (await sessionFetch(`${url}/api/jobs/${id}`)).json();
      return job.status === "completed";
    },
    30_000,
    `job ${id} to complete`,
  );
}

/** Uploads a CSV and starts a job through the API, as the web app would. */
export async function createJob(
  baseUrl: string,
  name: string,
  csv: string,
  options: Record<string, number> = {},
): Promise<{ id: number; fileName: string }> {
  const form = new FormData();
  form.append("file", new File([csv], name, { type: "text/csv" }));
  const upload = await (await sessionFetch(`${baseUrl}/api/upload`, {
    method: "POST",
    body: form,
  })).json();
  const response = await sessionFetch(`${baseUrl}/api/enrich`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      fileName: upload.fileName,
      originalFileName: upload.originalFileName,
      totalIPs: 0,
      status: "pending",
      ipColumnName: "ip_address",
      includeGeolocation: 1,
      includeDomain: 0,
      includeCompany: 1,
      includeNetwork: 1,
      ...options,
    }),
  });
  assert.equal(response.status < 300, true, await response.clone().text());
  const job = await response.json();
  return { id: job.id, fileName: upload.fileName };
}
