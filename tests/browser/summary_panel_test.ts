// The summary panel in Chromium: Vite bundles it (Observable Plot,
// world-atlas, topojson-client) from web/test_harness/summary; the charts
// and the map render, are labelled, show the known top entries, fit 375 px
// without horizontal scroll, and the server render (no DOM) carries the
// text alternatives and tables.

import assert from "node:assert/strict";
import { join } from "node:path";
import { build } from "vite";
import react from "@vitejs/plugin-react";
import { checkSummaryCharts, launchBrowser, screenshot } from "./browser.ts";

const OPTIONS = { sanitizeOps: false, sanitizeResources: false };
const TYPES: Record<string, string> = {
  html: "text/html",
  js: "text/javascript",
  css: "text/css",
  json: "application/json",
};

/** The built harness's files, from loopback. */
function serveFiles(root: string): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      const file = join(root, path === "/" ? "index.html" : path);
      if (!file.startsWith(root)) return new Response(null, { status: 404 });
      try {
        const body = await Deno.readFile(file);
        const type = TYPES[file.split(".").pop() ?? ""] ??
          "application/octet-stream";
        return new Response(body, { headers: { "content-type": type } });
      } catch {
        return new Response(null, { status: 404 });
      }
    },
  );
}

const HARNESS = new URL("../../web/test_harness/summary/", import.meta.url)
  .pathname;

async function buildHarness(): Promise<string> {
  const out = await Deno.makeTempDir({ prefix: "summary-harness-" });
  await build({
    configFile: false,
    root: HARNESS,
    plugins: [react()],
    logLevel: "warn",
    build: { outDir: join(out, "web"), emptyOutDir: true },
  });
  await build({
    configFile: false,
    root: HARNESS,
    plugins: [react()],
    logLevel: "warn",
    build: {
      ssr: "ssr.tsx",
      outDir: join(out, "ssr"),
      emptyOutDir: true,
      rollupOptions: { output: { entryFileNames: "ssr.js" } },
    },
    ssr: { noExternal: true },
  });
  return out;
}

Deno.test(
  "summary panel: server render has the text alternatives and tables",
  OPTIONS,
  async () => {
    const out = await buildHarness();
    try {
      const { render } = await import(`file://${out}/ssr/ssr.js`);
      const html: string = render();
      assert.match(html, /Summary \(so far\)/);
      assert.match(
        html,
        /Bar chart of top companies, largest first: Google LLC \(210 rows\)/,
      );
      assert.match(html, /most rows from United States \(520\)/);
      assert.equal((html.match(/<details/g) ?? []).length, 5);
      assert.match(html, /<td[^>]*>Invalid IP address format<\/td>/);
      // No chart is drawn on the server: the plot boxes are empty.
      assert.equal((html.match(/<svg/g) ?? []).length, 0);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
);

Deno.test(
  "summary panel: charts and map render, labelled, at 375 px and wide",
  OPTIONS,
  async () => {
    const out = await buildHarness();
    const server = serveFiles(join(out, "web"));
    const browser = await launchBrowser();
    try {
      for (const width of [375, 1100]) {
        const page = await browser.newPage({
          viewport: { width, height: 900 },
        });
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        await page.goto(`http://127.0.0.1:${server.addr.port}/`);
        const labels = await checkSummaryCharts(page, {
          company: ["Google LLC", 210],
          country: ["United States", 520],
          hosting: 350,
        });
        assert.match(labels[3], /^World map shaded by rows per country/);

        // The map: every country drawn, the US shaded darker than Australia.
        const fills = await page.locator(".summary-plot").nth(3)
          .locator('g[data-part="geo"] path').evaluateAll((paths) =>
            paths.map((
              p,
            ) => [
              p.querySelector("title")?.textContent ?? "",
              p.getAttribute("fill") ?? "",
            ])
          );
        assert.ok(fills.length > 170, `${fills.length} countries`);
        const fillOf = (name: string) =>
          fills.find(([t]) => t.startsWith(name))?.[1];
        assert.ok(fillOf("United States of America: 520"));
        assert.ok(fillOf("Australia: 40"));
        assert.notEqual(
          fillOf("United States of America"),
          fillOf("Australia"),
        );
        assert.equal(fillOf("France"), "#e5e7eb");

        // Charts fit the container; no horizontal scroll.
        const scroll = await page.evaluate<number>(
          "document.documentElement.scrollWidth",
        );
        assert.ok(scroll <= width, `${scroll}px wide at ${width}px`);

        // The table behind the toggle holds the data.
        await page.getByText("Show as table").first().click();
        const cells = await page.locator(".summary-table").first().locator(
          "tbody td",
        ).allTextContents();
        assert.deepEqual(cells.slice(0, 2), ["Google LLC", "210"]);

        await screenshot(page, `summary-panel-${width}`);
        assert.deepEqual(errors, []);
        await page.close();
      }

      // No companies: the chart says so, with no axis of "0.000000" ticks.
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${server.addr.port}/?empty`);
      const first = page.locator('.summary-plot [role="img"]').first();
      await first.waitFor({ timeout: 20_000 });
      assert.equal(
        await first.getAttribute("aria-label"),
        "No top companies yet.",
      );
      assert.deepEqual(await first.locator("text").allTextContents(), [
        "No rows",
      ]);
      await page.close();
    } finally {
      await browser.close();
      await server.shutdown();
      await Deno.remove(out, { recursive: true });
    }
  },
);
