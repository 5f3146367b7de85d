// What the browser believes it is talking to: the scheme and host of the
// request as the client sent it. Behind trusted proxies these come from
// X-Forwarded-Proto / X-Forwarded-Host, read like X-Forwarded-For (the entry
// the nearest trusted proxy wrote); otherwise a client could claim them.
import type { Context } from "hono";
import { forwardedValue } from "../middleware/client_address.ts";

/** Whether the client reached us over HTTPS (directly or at the proxy). */
export function requestIsHttps(c: Context, trustProxy: number): boolean {
  const proto = forwardedValue(c, "x-forwarded-proto", trustProxy);
  if (proto !== undefined) return proto.toLowerCase() === "https";
  return new URL(c.req.url).protocol === "https:";
}

/** The host (and port) the client addressed, lower-cased. */
export function requestHost(c: Context, trustProxy: number): string {
  return (forwardedValue(c, "x-forwarded-host", trustProxy) ??
    c.req.header("host") ?? new URL(c.req.url).host).toLowerCase();
}
