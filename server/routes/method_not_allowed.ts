// A request to an /api path that exists, with a method it does not take:
// 405 with the methods it does take in Allow (RFC 9110), rather than 404.
import type { Context, Hono } from "hono";

/** Whether a declared route is an /api resource (not middleware, "ALL"). */
const isApiResource = (route: { method: string; path: string }) =>
  route.method !== "ALL" && route.path.startsWith("/api/") &&
  !route.path.includes("*");

/** The methods `app` answers on /api `path` (GET brings HEAD); empty: none. */
export function allowedMethods(app: Hono, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (!isApiResource(route) || methods.has(route.method)) continue;
    if (new URLPattern({ pathname: route.path }).test({ pathname: path })) {
      methods.add(route.method);
      if (route.method === "GET") methods.add("HEAD");
    }
  }
  return [...methods];
}

/** The answer to an /api request no route took: 405 or 404. */
export function unmatchedApiRequest(app: Hono, c: Context): Response {
  const allowed = allowedMethods(app, c.req.path);
  if (allowed.length === 0) {
    return c.json({ message: `Not found: ${c.req.method} ${c.req.path}` }, 404);
  }
  c.header("Allow", allowed.join(", "));
  return c.json({
    message: `${c.req.path} does not take ${c.req.method}; it takes ${
      allowed.join(", ")
    }`,
  }, 405);
}
