// Refuses requests that a page on another origin made the browser send with
// the visitor's cookie: state-changing ones, and the WebSocket upgrade, which
// reads the visitor's jobs (a page on a sibling subdomain is the same site,
// so SameSite=Lax still sends the cookie; its Origin differs). Browsers send
// Origin on every POST, DELETE and WebSocket upgrade, and Sec-Fetch-Site on
// every request; a request with neither is not from a browser page (curl,
// scripts) and carries no ambient cookie risk, so it passes.
import type { MiddlewareHandler } from "hono";
import { requestHost } from "./request_origin.ts";

export const CROSS_SITE_MESSAGE =
  "Cross-site request refused: this action must come from the app's own pages";

/** The routes this guards (method and path pattern), for the record. */
export const SAME_ORIGIN_ROUTES = [
  ["POST", "/api/upload"],
  ["POST", "/api/enrich"],
  ["POST", "/api/jobs/:id/cancel"],
  ["POST", "/api/jobs/:id/restart"],
  ["DELETE", "/api/jobs/completed"],
  ["POST", "/signin"],
  ["GET", "/ws"],
] as const;

/** Origin's host:port, with the scheme's default port left out; or null. */
function originHost(origin: string): { host: string; protocol: string } | null {
  try {
    const url = new URL(origin);
    return { host: url.host.toLowerCase(), protocol: url.protocol };
  } catch {
    return null; // "null" (sandboxed frames, some redirects) or garbage
  }
}

/** host as a URL of `protocol` would write it (":80" dropped for http:). */
function normalizedHost(host: string, protocol: string): string {
  try {
    return new URL(`${protocol}//${host}`).host.toLowerCase();
  } catch {
    return host;
  }
}

export function sameSiteOnly(
  options: { trustProxy: number },
): MiddlewareHandler {
  return async (c, next) => {
    const refuse = () => c.json({ message: CROSS_SITE_MESSAGE }, 403);
    const fetchSite = c.req.header("sec-fetch-site")?.toLowerCase();
    if (fetchSite === "cross-site") return refuse();
    // The browser vouches for the app's own pages. Their form posts send
    // "Origin: null" under Referrer-Policy: no-referrer (the sign-in form).
    if (fetchSite === "same-origin") return await next();
    const origin = c.req.header("origin");
    if (origin !== undefined) {
      const from = originHost(origin);
      if (from === null) return refuse();
      const to = normalizedHost(
        requestHost(c, options.trustProxy),
        from.protocol,
      );
      if (from.host !== to) return refuse();
    }
    await next();
  };
}
