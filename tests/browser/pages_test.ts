// Pages and behaviour outside the job flow: prerendered pages without
// JavaScript, hydration, the 404 page, the mobile menu at 375 px, keyboard
// use, notifications (one at a time, 5 s, swipe, F8) and validation errors.
// (Over 300 lines: the pages outside the job flow in one file, each test
// with its own server and browser.)

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { CLIENT_PAGES } from "../../shared/pages.ts";
import { browserTest, screenshot, writeCsv } from "./browser.ts";

const NOT_A_TABLE =
  "Please upload a CSV, TSV, Excel (.xlsx), or a .csv.gz/.zip of one CSV";

/** Fails the test on page errors and hydration mismatches. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (/hydrat/i.test(message.text())) errors.push(message.text());
  });
  return errors;
}

async function noHorizontalScroll(page: Page): Promise<void> {
  // Expressions as strings: they run in the page, not in Deno.
  const scroll = await page.evaluate<number>(
    "document.documentElement.scrollWidth",
  );
  const width = await page.evaluate<number>("innerWidth");
  assert.ok(scroll <= width, `${page.url()}: ${scroll}px wide at ${width}px`);
}

const CONTACT = "privacy@operator.example";

browserTest("content pages read without JavaScript; 404", {
  CONTACT_EMAIL: CONTACT,
}, async (server, browser) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();

  await page.goto(server.url + "/");
  await page.getByRole("heading", { name: "Upload IP Addresses" }).waitFor();
  await page.getByText("File must contain a header row").waitFor();

  await page.goto(server.url + "/bulk-processing");
  await page.getByRole("heading", { name: "Bulk Processing", level: 1 })
    .waitFor();
  await page.getByText("Auto-save every 100 records").waitFor();
  await page.getByRole("button", { name: "Start Processing Now" }).waitFor();
  await screenshot(page, "20-bulk-processing-nojs");

  // Header and footer: each link its own page, every page readable here.
  await page.goto(server.url + "/");
  const header = page.getByRole("navigation", { name: "Main" });
  const footer = page.getByRole("navigation", { name: "Footer" });
  const targets = [
    [header, "History", "/history", "Processing History"],
    [header, "Documentation", "/docs", "Documentation"],
    [header, "API", "/api", "API Documentation"],
    [footer, "Privacy Policy", "/privacy", "Privacy"],
    [footer, "Terms of Service", "/terms", "Terms and data licences"],
    [footer, "Contact Us", "/contact", "Contact"],
  ] as const;
  for (const [nav, name, path] of targets) {
    assert.equal(
      await nav.getByRole("link", { name, exact: true }).getAttribute(
        "href",
      ),
      path,
      name,
    );
  }
  for (const [, , path, heading] of targets) {
    await page.goto(server.url + path);
    await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
  }
  await page.goto(server.url + "/docs");
  await page.getByRole("cell", { name: "classification_reason" }).waitFor();
  await page.goto(server.url + "/privacy");
  await page.getByText(
    "If no job is started from it, it is deleted after a day",
  )
    .waitFor();
  await page.goto(server.url + "/terms");
  await page.getByText("CC BY 4.0").first().waitFor();
  // The operator's contact, as CONTACT_EMAIL set it, without JavaScript.
  await page.goto(server.url + "/contact");
  const contact = page.getByRole("link", { name: CONTACT });
  assert.equal(await contact.getAttribute("href"), `mailto:${CONTACT}`);
  await screenshot(page, "21-contact-nojs");
  const pricing = await page.goto(server.url + "/pricing");
  assert.equal(pricing?.status(), 404, "no pricing page for a free tool");

  const missing = await page.goto(server.url + "/no/such/page");
  assert.equal(missing?.status(), 404);
  await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
  assert.match(await page.title(), /404 Page Not Found/);
  await context.close();

  // With JavaScript: pages hydrate without mismatches.
  const js = await browser.newPage({
    viewport: { width: 1280, height: 900 },
  });
  const errors = watchErrors(js);
  for (
    const [path, name] of [
      ["/bulk-processing", "22-bulk-processing"],
      ["/docs", "23-docs"],
      ["/privacy", "24-privacy"],
      ["/terms", "24-terms"],
      ["/contact", "24-contact"],
      ["/missing", "25-not-found"],
    ]
  ) {
    await js.goto(server.url + path);
    await js.waitForLoadState("networkidle");
    await screenshot(js, name);
  }
  // The contact the app renders is the one the server wrote in.
  await js.goto(server.url + "/contact");
  await js.waitForLoadState("networkidle");
  assert.equal(
    await js.getByRole("link", { name: CONTACT }).getAttribute("href"),
    `mailto:${CONTACT}`,
  );
  // Reached inside the app (no page load), it is there too.
  await js.goto(server.url + "/");
  await js.getByRole("navigation", { name: "Footer" })
    .getByRole("link", { name: "Privacy Policy" }).click();
  await js.getByRole("link", { name: CONTACT }).waitFor();
  assert.deepEqual(errors, []);
});

browserTest(
  "Home shows the upload card before any API call returns",
  {},
  async (server, browser) => {
    const page = await browser.newPage();
    // Hold every API call: the page must not wait for them.
    await page.route("**/api/**", () => {});
    await page.goto(server.url + "/", { waitUntil: "domcontentloaded" });
    await page.getByRole("heading", { name: "Upload IP Addresses" })
      .waitFor();
    await page.getByRole("button", { name: "Browse Files" }).waitFor();
  },
);

browserTest(
  "mobile menu at 375 px, no horizontal scrolling",
  {},
  async (server, browser) => {
    const page = await browser.newPage({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const errors = watchErrors(page);
    for (
      const { path } of CLIENT_PAGES.filter((page) => page.prerender)
    ) {
      await page.goto(server.url + path);
      await page.waitForLoadState("networkidle");
      await noHorizontalScroll(page);
    }
    await page.goto(server.url + "/");
    await screenshot(page, "30-mobile-home");

    const header = page.locator("header.site-header");
    assert.equal(
      await header.locator(".desktop-links").isVisible(),
      false,
      "desktop links are hidden",
    );
    const menu = page.locator("summary", { hasText: "Menu" });
    await menu.click();
    const panel = page.getByRole("navigation", { name: "Menu" });
    await panel.getByRole("link", { name: "History" }).waitFor();
    await panel.getByRole("link", { name: "Documentation" }).waitFor();
    await panel.getByRole("link", { name: "API" }).waitFor();
    await screenshot(page, "31-mobile-menu-open");

    // Escape closes it; the keyboard opens it again.
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "hidden" });
    await menu.focus();
    await page.keyboard.press("Enter");
    await panel.getByRole("link", { name: "Documentation" }).click();
    await page.waitForURL("**/docs");
    await page.getByRole("heading", { name: "Documentation", level: 1 })
      .waitFor();
    await panel.waitFor({ state: "hidden" });
    await noHorizontalScroll(page);
    assert.deepEqual(errors, []);
  },
);

browserTest(
  "notifications: one at a time, 5 s, swipe, F8",
  {},
  async (server, browser) => {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 800 },
    });
    await page.goto(server.url + "/");
    const input = page.locator('input[type="file"]');
    const toasts = page.getByTestId("toast");

    // Hydrated once the server's settings show.
    await page.getByText("Maximum file size: 10MB").waitFor();
    // F8 focuses the notification region.
    await page.keyboard.press("F8");
    const focused = await page.evaluate<string | null>(
      'document.activeElement?.getAttribute("aria-label")',
    );
    assert.equal(focused, "Notifications");

    const txt = await writeCsv("notes.pdf", "hello");
    const png = await writeCsv("picture.png", "not really");
    await input.setInputFiles(txt);
    await toasts.getByText("Invalid file format").waitFor();
    // The first toast marked, the second replaces it once it shows. The page
    // notes when a toast comes and goes: its own clock, not the test's.
    await toasts.first().evaluate((e) => e.setAttribute("data-first", ""));
    await page.evaluate(`{
      const seen = globalThis.toastTimes = { added: 0, removed: 0 };
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.addedNodes.length) seen.added = performance.now();
          if (record.removedNodes.length) seen.removed = performance.now();
        }
      }).observe(document.querySelector(".notifications ol"), {
        childList: true,
      });
    }`);
    await input.setInputFiles(png);
    await page.locator('[data-testid="toast"]:not([data-first])').waitFor();
    assert.equal(await toasts.count(), 1, "one toast at a time");
    await screenshot(page, "32-toast");

    // Gone by itself after 5 s (timers may fire late, never early).
    await toasts.first().waitFor({ state: "detached", timeout: 30_000 });
    const { added, removed } = await page.evaluate<
      { added: number; removed: number }
    >("globalThis.toastTimes");
    assert.ok(
      removed - added >= 5_000,
      `auto-dismissed after ${(removed - added).toFixed(0)} ms`,
    );

    // Swipe right by more than 50 px dismisses. A toast under the pointer
    // stays (its timer is paused), so once the swipe ends over it, only the
    // swipe can take it away: the wait needs no bound of its own.
    await input.setInputFiles(txt);
    await toasts.first().waitFor();
    const box = (await toasts.first().boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    assert.equal(await toasts.count(), 1, "the toast is there to swipe");
    await page.mouse.down();
    await page.mouse.move(box.x + 60, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + 100, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await toasts.first().waitFor({ state: "detached" });
  },
);

browserTest("upload validation: non-CSV, too large, no header, server down", {
  MAX_UPLOAD_MB: "1",
}, async (server, browser) => {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 800 },
  });
  await page.goto(server.url + "/");
  // The texts follow the server's limit.
  await page.getByText("Maximum file size: 1MB").waitFor();
  await page.getByText(
    "A 1MB CSV holds about 20,000 IP addresses; a compressed (.csv.gz, .zip) or Excel file of 1MB may hold up to 50MB of rows, about 1 million IP addresses.",
  ).waitFor();
  await page.getByText(
    "Files of up to about 1 million IP addresses, saved every 100 records.",
  ).waitFor();
  const input = page.locator('input[type="file"]');

  // Keyboard: Browse Files is reachable and opens the file chooser.
  const browse = page.getByRole("button", { name: "Browse Files" });
  await browse.focus();
  await page.evaluate(`document.querySelector('input[type="file"]')
        .addEventListener("click", (event) => {
          event.preventDefault();
          globalThis.chooserOpened = true;
        })`);
  await browse.press("Enter");
  assert.equal(await page.evaluate("globalThis.chooserOpened"), true);
  await input.setInputFiles(await writeCsv("notes.pdf", "ip\n8.8.8.8\n"));
  await page.getByText("Invalid file format").waitFor();
  await page.getByText(NOT_A_TABLE).waitFor();
  await screenshot(page, "40-invalid-format");

  // Dropped files go through the same checks.
  const transfer = await page.evaluateHandle(`(() => {
        const data = new DataTransfer();
        data.items.add(new File(["ip,name"], "list.docx"));
        return data;
      })()`);
  await page.dispatchEvent(".drop-zone", "drop", {
    dataTransfer: transfer,
  });
  await page.getByText(NOT_A_TABLE).waitFor();

  const big = "ip_address\n" + "8.8.8.8\n".repeat(150_000); // ~1.2 MB
  await input.setInputFiles(await writeCsv("big.csv", big));
  await page.getByText("File too large").waitFor();
  await page.getByText("Please upload a file smaller than 1MB").waitFor();
  await screenshot(page, "41-too-large");

  await input.setInputFiles(await writeCsv("empty.csv", "\n\n"));
  await page.getByText("Upload failed", { exact: true }).waitFor();
  await page.getByText(/Could not parse CSV headers/).waitFor();
  await screenshot(page, "42-no-header");
  await page.getByRole("heading", { name: "Upload IP Addresses" })
    .waitFor();

  // The server cannot be reached: a message a person understands.
  await page.route(
    "**/api/upload",
    (route) => route.abort("connectionrefused"),
  );
  await input.setInputFiles(await writeCsv("ok.csv", "ip\n8.8.8.8\n"));
  await page.getByText(/Cannot reach the server/).waitFor();
  await page.unroute("**/api/upload");

  // History while the server is down.
  await page.route(
    "**/api/jobs",
    (route) => route.abort("connectionrefused"),
  );
  await page.goto(server.url + "/history");
  await page.getByText(
    /Failed to load job history: .*Cannot reach the server/,
  )
    .waitFor({ timeout: 20_000 });
  await screenshot(page, "43-history-server-down");
});

browserTest(
  "API page: reads without JavaScript; tabs and lookup",
  {},
  async (server, browser) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const api = await page.goto(server.url + "/api");
    assert.equal(api?.status(), 200);
    for (
      const heading of [
        "Single IP Lookup",
        "BigQuery Integration",
        "Batch Processing",
        "Rate Limits",
      ]
    ) {
      await page.getByRole("heading", { name: heading }).waitFor();
    }
    await page.getByText("/api/lookup?ip=8.8.8.8").first().waitFor();
    await screenshot(page, "21-api-nojs");
    await context.close();

    const js = await browser.newPage({
      viewport: { width: 1280, height: 900 },
    });
    const errors = watchErrors(js);
    await js.goto(server.url + "/api");
    await js.waitForLoadState("networkidle");
    await screenshot(js, "23-api");
    // The tabs work from the keyboard.
    const single = js.getByRole("tab", { name: "Single IP Lookup" });
    await single.focus();
    await js.keyboard.press("ArrowRight");
    const bigquery = js.getByRole("tab", { name: "BigQuery Integration" });
    assert.equal(await bigquery.getAttribute("aria-selected"), "true");
    await js.getByText("CREATE FUNCTION").waitFor();
    // The lookup form answers from this server.
    await single.click();
    await js.getByLabel("Try it: IP address").fill("8.8.8.8");
    await js.getByRole("button", { name: "Look up" }).click();
    // The page's example shows the same answer: wait on the form's own.
    await js.locator("form").getByText('"asn": "AS15169 Google LLC"')
      .waitFor();
    await screenshot(js, "26-api-lookup");
    assert.deepEqual(errors, []);
  },
);
