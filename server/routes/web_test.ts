// The web app's pages (shared/pages.ts) in process, over a web bundle made
// here: prerendered pages as written, other pages as the app shell, any
// other path the 404 page.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { NO_CONTACT_TEXT } from "../../shared/operator_contact.ts";
import { CLIENT_PAGES } from "../../shared/pages.ts";
import { webRoutes } from "./web.ts";

Deno.test("pages get the operator's contact written in", async () => {
  const webDir = await Deno.makeTempDir({ prefix: "ipenrich-web-" });
  try {
    await Deno.mkdir(join(webDir, "contact"));
    const page =
      `<p>Ask <a class="operator-contact">${NO_CONTACT_TEXT}</a>.</p>`;
    await Deno.writeTextFile(join(webDir, "contact", "index.html"), page);
    const text = async (app: ReturnType<typeof webRoutes>) =>
      await (await app.request("/contact")).text();
    assertEquals(await text(webRoutes(webDir)), page, "none set: as built");
    assertEquals(
      await text(webRoutes(webDir, { email: "a&b@example.org", url: null })),
      '<p>Ask <a class="operator-contact" href="mailto:a&amp;b@example.org">' +
        "a&amp;b@example.org</a>.</p>",
    );
    assertEquals(
      await text(
        webRoutes(webDir, {
          email: "ops@example.org",
          url: "https://example.org/help?a=1&b=2",
        }),
      ),
      '<p>Ask <a class="operator-contact" ' +
        'href="https://example.org/help?a=1&amp;b=2">' +
        "https://example.org/help?a=1&amp;b=2</a>.</p>",
    );
  } finally {
    await Deno.remove(webDir, { recursive: true });
  }
});

Deno.test("client pages get their page or the app shell; others a 404", async () => {
  const webDir = await Deno.makeTempDir({ prefix: "ipenrich-web-" });
  try {
    await Deno.writeTextFile(join(webDir, "app.html"), "shell");
    await Deno.writeTextFile(join(webDir, "404.html"), "not found");
    await Deno.mkdir(join(webDir, "history"));
    await Deno.writeTextFile(join(webDir, "history", "index.html"), "history");
    const app = webRoutes(webDir);
    const get = async (path: string) => {
      const response = await app.request(path);
      return [response.status, await response.text()];
    };
    assertEquals(await get("/history"), [200, "history"]);
    assertEquals(await get("/results/42"), [200, "shell"]);
    assertEquals(await get("/results/42/"), [200, "shell"]);
    assertEquals(await get("/pricing"), [404, "not found"]);
    assertEquals(await get("/results"), [404, "not found"]);
    assertEquals(await get("/results/1/2"), [404, "not found"]);
    assertEquals(await get("/nope"), [404, "not found"]);
    for (const page of CLIENT_PAGES) {
      const path = page.path.replace(":id", "7");
      const [status] = await get(path);
      ok(status === 200, `${path}: ${status}`);
    }
  } finally {
    await Deno.remove(webDir, { recursive: true });
  }
});
