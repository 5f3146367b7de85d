// The pages of the web app, shared by its router (web/src/), the build that
// prerenders them (scripts/build_web.ts) and the server that serves them
// (server/routes/web.ts). The 404 page is not listed: it is every other path.

export interface ClientPage {
  /** react-router path pattern (":id" matches one path segment). */
  path: string;
  /**
   * true: rendered to static HTML at build time, at prerenderedFile(path).
   * false: the browser renders it into the empty app shell (app.html).
   */
  prerender: boolean;
}

export const CLIENT_PAGES = [
  { path: "/", prerender: true },
  { path: "/history", prerender: true },
  { path: "/bulk-processing", prerender: true },
  { path: "/api", prerender: true },
  { path: "/docs", prerender: true },
  { path: "/privacy", prerender: true },
  { path: "/terms", prerender: true },
  { path: "/contact", prerender: true },
  { path: "/results/:id", prerender: false },
] as const satisfies readonly ClientPage[];

/** One of the paths of CLIENT_PAGES. */
export type ClientPagePath = (typeof CLIENT_PAGES)[number]["path"];

/** Where under web/dist a prerendered page is written: "/api" -> "api/index.html". */
export function prerenderedFile(path: string): string {
  return path === "/" ? "index.html" : `${path.slice(1)}/index.html`;
}
