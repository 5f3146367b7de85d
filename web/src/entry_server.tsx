// Build-time prerendering: renders a route to HTML with the same components
// the browser hydrates (used by scripts/build_web.ts only).

import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router";
import { createQueryClient } from "./api/client.ts";
import { App } from "./App.tsx";
import { pageTitle } from "./lib/use_page_title.ts";
import { routeFor, ROUTES } from "./routes.ts";

export { ROUTES };

export function render(url: string): { html: string; title: string } {
  const html = renderToString(
    <StaticRouter location={url}>
      <App queryClient={createQueryClient()} />
    </StaticRouter>,
  );
  return {
    html,
    title: pageTitle(routeFor(new URL(url, "http://x").pathname).title),
  };
}
