// The client routes, their titles, and which of them are prerendered to
// static HTML at build time (scripts/build_web.ts).

import { matchPath } from "react-router";

export interface RouteInfo {
  /** react-router path pattern; "*" is the 404 page. */
  path: string;
  title: string;
  /** File under web/dist that holds the prerendered page, if any. */
  file?: string;
}

export const ROUTES: RouteInfo[] = [
  { path: "/", title: "", file: "index.html" },
  { path: "/history", title: "Processing History", file: "history/index.html" },
  {
    path: "/bulk-processing",
    title: "Bulk Processing",
    file: "bulk-processing/index.html",
  },
  { path: "/api", title: "API", file: "api/index.html" },
  { path: "/pricing", title: "Pricing", file: "pricing/index.html" },
  { path: "/results/:id", title: "Enrichment Results" },
  { path: "*", title: "404 Page Not Found", file: "404.html" },
];

/** The route pattern a pathname lands on. */
export function routeFor(pathname: string): RouteInfo {
  return ROUTES.find((route) =>
    route.path !== "*" && matchPath({ path: route.path, end: true }, pathname)
  ) ?? ROUTES[ROUTES.length - 1];
}
