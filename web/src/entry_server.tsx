// Build-time prerendering: renders a route to HTML with the same components
// the browser hydrates (used by scripts/build_web.ts only).

import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router";
import { createQueryClient } from "./api/query_client.ts";
import { App } from "./App.tsx";
import { pageTitle } from "./lib/use_page_title.ts";
import { routeFor } from "./routes.ts";

/** The page at `url`, and the route pattern it matched ("*" for 404). */
export function render(
  url: string,
): { html: string; title: string; route: string } {
  const html = renderToString(
    <StaticRouter location={url}>
      <App queryClient={createQueryClient()} />
    </StaticRouter>,
  );
  const route = routeFor(new URL(url, "http://localhost").pathname);
  return { html, title: pageTitle(route.title), route: route.path };
}
