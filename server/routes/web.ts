// Serves the built web app (web/dist): files as they are, prerendered pages
// at <path>/index.html with the operator's contact filled in, the app's other
// pages (shared/pages.ts) as the empty app shell, and the 404 page with a 404
// status for any other path.
import { Hono } from "hono";
import { serveStatic } from "hono/deno";
import { join, normalize } from "node:path";
import {
  contactLink,
  type OperatorContact,
} from "../../shared/operator_contact.ts";
import { CLIENT_PAGES } from "../../shared/pages.ts";

/** "/results/:id" -> a pattern matching "/results/7" and "/results/7/". */
function pathPattern(path: string): RegExp {
  const parts = path.split("/").filter(Boolean).map((part) =>
    part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  );
  return new RegExp(`^/${parts.join("/")}${parts.length ? "/?" : ""}$`);
}

// The web app's pages: one without a prerendered file (not prerendered, or
// the build is missing) gets the empty app shell the browser renders into.
const CLIENT_PAGE_PATTERNS = CLIENT_PAGES.map((page) => pathPattern(page.path));

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>IP Enrichment</title></head><body><main><h1>IP Enrichment</h1>
<p>The web app has not been built yet: run <code>deno task build:web</code>.
The API is available under <code>/api</code>.</p></main></body></html>`;

async function readPage(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

/** A prerendered page at <webDir>/<name>/index.html, e.g. the API page. */
export async function prerenderedPage(
  webDir: string,
  name: string,
): Promise<string | null> {
  return await readPage(join(webDir, name, "index.html"));
}

/**
 * The built app's stylesheets (/assets/index-<hash>.css), read from
 * web/dist/index.html, for pages served outside the app (the sign-in page).
 * None when the app is not built.
 */
export async function builtStylesheets(webDir: string): Promise<string[]> {
  const html = await readPage(join(webDir, "index.html")) ?? "";
  return [...html.matchAll(/<link\b[^>]*>/g)]
    .map(([tag]) => tag)
    .filter((tag) => /\brel="stylesheet"/.test(tag))
    .map((tag) => /\bhref="(\/assets\/[^"]+)"/.exec(tag)?.[1])
    .filter((href): href is string => href !== undefined);
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

/**
 * The prerendered contact links (web/src/components/OperatorContactLink.tsx,
 * built without a contact) as this server's CONTACT_URL or CONTACT_EMAIL.
 */
export function fillOperatorContact(
  html: string,
  contact: OperatorContact,
): string {
  const { href, text } = contactLink(contact);
  if (href === null) return html;
  return html.replace(
    /<a class="operator-contact">[^<]*<\/a>/g,
    `<a class="operator-contact" href="${escapeHtml(href)}">${
      escapeHtml(text)
    }</a>`,
  );
}

export function webRoutes(
  webDir: string,
  contact: OperatorContact = { email: null, url: null },
) {
  const app = new Hono();
  app.use(
    "/assets/*",
    async (c, next) => {
      await next();
      // Vite names assets by content hash: they never change.
      if (c.res.ok) {
        c.res.headers.set(
          "cache-control",
          "public, max-age=31536000, immutable",
        );
      }
    },
  );
  // Files as built, but pages (HTML) get the contact written in below.
  const files = serveStatic({ root: webDir });
  app.use("*", async (c, next) => {
    const isFile = /\.[^/]*$/.test(c.req.path) && !c.req.path.endsWith(".html");
    return isFile ? await files(c, next) : await next();
  });
  app.get("*", async (c) => {
    // c.req.path is decoded already; decoding again would turn "%25ff"
    // into a broken escape.
    const path = normalize(c.req.path).replace(/\/+$/, "");
    const file = path.endsWith(".html") ? path : join(path, "index.html");
    const page = !path.includes("..")
      ? await readPage(join(webDir, file))
      : null;
    if (page) return c.html(fillOperatorContact(page, contact));
    if (CLIENT_PAGE_PATTERNS.some((pattern) => pattern.test(c.req.path))) {
      return c.html(
        await readPage(join(webDir, "app.html")) ??
          await readPage(join(webDir, "index.html")) ?? PLACEHOLDER,
      );
    }
    const notFoundPage = await readPage(join(webDir, "404.html")) ??
      await readPage(join(webDir, "index.html")) ??
      "<!doctype html><title>404 Page Not Found</title><h1>404 Page Not Found</h1>";
    return c.html(notFoundPage, 404);
  });
  return app;
}
