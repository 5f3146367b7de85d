import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Hono } from "hono";
import { CROSS_SITE_MESSAGE, sameSiteOnly } from "./cross_site.ts";

function appWith(trustProxy = 0) {
  const app = new Hono();
  app.post(
    "/api/enrich",
    sameSiteOnly({ trustProxy }),
    (c) => c.json({ ok: true }),
  );
  return app;
}

async function status(
  app: Hono,
  headers: Record<string, string>,
  url = "http://app.test/api/enrich",
) {
  const response = await app.request(url, { method: "POST", headers });
  const body = await response.json();
  if (response.status === 403) {
    assertEquals(body, { message: CROSS_SITE_MESSAGE });
  }
  return response.status;
}

Deno.test("the app's own pages and non-browser clients pass", async () => {
  const app = appWith();
  assertEquals(await status(app, {}), 200); // curl: no Origin, no Sec-Fetch-Site
  assertEquals(
    await status(app, {
      Origin: "http://app.test",
      "Sec-Fetch-Site": "same-origin",
    }),
    200,
  );
  // Host with the scheme's default port written out is the same host.
  assertEquals(
    await status(app, { Origin: "http://app.test", Host: "app.test:80" }),
    200,
  );
  assertEquals(
    await status(app, {
      Origin: "http://APP.test:8080",
      Host: "app.test:8080",
    }),
    200,
  );
  assertEquals(await status(app, { "Sec-Fetch-Site": "none" }), 200); // typed in / bookmark
  // A form on the app's own page under Referrer-Policy: no-referrer.
  assertEquals(
    await status(app, { Origin: "null", "Sec-Fetch-Site": "same-origin" }),
    200,
  );
});

Deno.test("another site's page is refused with 403 and a clear message", async () => {
  const app = appWith();
  assertEquals(await status(app, { Origin: "https://evil.example" }), 403);
  assertEquals(await status(app, { "Sec-Fetch-Site": "cross-site" }), 403);
  // Sec-Fetch-Site alone is enough even if Origin was stripped.
  assertEquals(
    await status(app, {
      "Sec-Fetch-Site": "cross-site",
      Origin: "http://app.test",
    }),
    403,
  );
  // Same host name, other port: another origin's page.
  assertEquals(await status(app, { Origin: "http://app.test:9999" }), 403);
  assertEquals(await status(app, { Origin: "null" }), 403); // sandboxed frame
  assertEquals(
    await status(app, { Origin: "http://app.test.evil.example" }),
    403,
  );
});

Deno.test("X-Forwarded-Host counts only behind a trusted proxy", async () => {
  const headers = {
    Origin: "https://enrich.example.com",
    Host: "127.0.0.1:5000",
    "X-Forwarded-Host": "enrich.example.com",
  };
  assertEquals(await status(appWith(1), headers), 200);
  // Untrusted: the header is the client's claim; the Host decides.
  assertEquals(await status(appWith(0), headers), 403);
  // And a trusted proxy's Host rules out a forged Origin.
  assertEquals(
    await status(appWith(1), { ...headers, Origin: "https://evil.example" }),
    403,
  );
});
