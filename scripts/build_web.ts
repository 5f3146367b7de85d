// Builds the web app into web/dist with Vite, then prerenders the content
// pages to static HTML (islands-style: they read without JavaScript and
// hydrate in the browser).
//
//   deno run -A scripts/build_web.ts              build
//   deno run -A scripts/build_web.ts --if-missing build only when web/dist is
//                                                 missing or older than web/src
//
// Output: web/dist/index.html (Home), web/dist/<route>/index.html for the
// other prerendered pages of shared/pages.ts, web/dist/404.html,
// web/dist/app.html (an empty shell for the pages rendered only in the
// browser, such as /results/:id) and web/dist/assets/.

import { build } from "vite";
import { CLIENT_PAGES, prerenderedFile } from "../shared/pages.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const WEB = `${ROOT}web/`;
const DIST = `${WEB}dist/`;
const CONFIG = `${WEB}vite.config.ts`;
/** Where index.html holds the app; deno fmt may re-indent it. */
const ROOT_MARKER = /<div id="root">\s*<!--app-html-->\s*<\/div>/;

async function newestSourceTime(): Promise<number> {
  let newest = 0;
  const visit = async (path: string) => {
    const info = await Deno.stat(path);
    if (info.isDirectory) {
      for await (const entry of Deno.readDir(path)) {
        await visit(`${path}/${entry.name}`);
      }
    } else {
      newest = Math.max(newest, info.mtime?.getTime() ?? 0);
    }
  };
  for (
    const path of [
      `${WEB}src`,
      `${WEB}index.html`,
      CONFIG,
      `${ROOT}shared/wire.ts`,
      `${ROOT}shared/pages.ts`,
      new URL(import.meta.url).pathname,
    ]
  ) {
    await visit(path).catch(() => {});
  }
  return newest;
}

async function isUpToDate(): Promise<boolean> {
  try {
    const built = (await Deno.stat(`${DIST}index.html`)).mtime?.getTime() ?? 0;
    return built >= await newestSourceTime();
  } catch {
    return false;
  }
}

/** web/src/entry_server.tsx, built for the server. */
interface ServerEntry {
  render(url: string): { html: string; title: string; route: string };
}

async function prerender(): Promise<string[]> {
  const SSR_OUT = `${await Deno.makeTempDir({ prefix: "web-ssr-" })}/`;
  await build({
    configFile: CONFIG,
    logLevel: "warn",
    build: {
      ssr: "src/entry_server.tsx",
      outDir: SSR_OUT,
      emptyOutDir: true,
      rollupOptions: { output: { entryFileNames: "entry_server.js" } },
    },
    ssr: { noExternal: true },
  });
  const entry: ServerEntry = await import(`file://${SSR_OUT}entry_server.js`);
  const template = await Deno.readTextFile(`${DIST}index.html`);
  if (!ROOT_MARKER.test(template)) {
    throw new Error(`web/dist/index.html has no ${ROOT_MARKER.source}`);
  }
  const page = (html: string, title: string, route: string) =>
    template
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
      .replace(
        ROOT_MARKER,
        () => `<div id="root" data-route="${escapeHtml(route)}">${html}</div>`,
      );

  const targets: { url: string; file: string }[] = CLIENT_PAGES
    .filter(({ prerender }) => prerender)
    .map(({ path }) => ({ url: path, file: prerenderedFile(path) }));
  targets.push({ url: "/404", file: "404.html" });
  const written: string[] = [];
  for (const { url, file } of targets) {
    const { html, title, route } = entry.render(url);
    const path = `${DIST}${file}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, page(html, title, route));
    written.push(file);
  }
  // The shell for routes rendered only in the browser (/results/:id).
  await Deno.writeTextFile(
    `${DIST}app.html`,
    template.replace(ROOT_MARKER, '<div id="root"></div>'),
  );
  written.push("app.html");
  await Deno.remove(SSR_OUT, { recursive: true }).catch(() => {});
  return written;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

if (import.meta.main) {
  if (Deno.args.includes("--if-missing") && await isUpToDate()) {
    console.log("web/dist is up to date");
    Deno.exit(0);
  }
  const started = performance.now();
  await build({ configFile: CONFIG, logLevel: "warn" });
  const pages = await prerender();
  console.log(
    `built web/dist in ${Math.round(performance.now() - started)} ms; ` +
      `prerendered ${pages.join(", ")}`,
  );
  Deno.exit(0);
}
