// The client routes and their titles: the pages of shared/pages.ts, then the
// 404 page for every other path.

import { matchPath } from "react-router";
import { CLIENT_PAGES, type ClientPagePath } from "../../shared/pages.ts";

export interface RouteInfo {
  /** react-router path pattern; "*" is the 404 page. */
  path: string;
  title: string;
}

/** The title of each page; Home's is the site name alone. */
const PAGE_TITLES: Record<ClientPagePath, string> = {
  "/": "",
  "/history": "Processing History",
  "/bulk-processing": "Bulk Processing",
  "/api": "API",
  "/docs": "Documentation",
  "/privacy": "Privacy",
  "/terms": "Terms",
  "/contact": "Contact",
  "/results/:id": "Enrichment Results",
};

export const NOT_FOUND_ROUTE: RouteInfo = {
  path: "*",
  title: "404 Page Not Found",
};

export const ROUTES: RouteInfo[] = [
  ...CLIENT_PAGES.map(({ path }) => ({ path, title: PAGE_TITLES[path] })),
  NOT_FOUND_ROUTE,
];

/** The route pattern a pathname lands on. */
export function routeFor(pathname: string): RouteInfo {
  return ROUTES.find((route) =>
    route !== NOT_FOUND_ROUTE &&
    matchPath({ path: route.path, end: true }, pathname)
  ) ?? NOT_FOUND_ROUTE;
}
