// CORS for the public lookup routes: any origin may call them from a browser
// (no cookies are involved), and may read the rate-limit headers. Requests
// may carry a lookup API key (Authorization: Bearer).
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

export const EXPOSED_HEADERS = [
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
];

export function lookupCors(): MiddlewareHandler {
  return cors({
    origin: "*",
    allowMethods: ["GET", "HEAD", "POST", "OPTIONS"],
    allowHeaders: ["Content-Type", "Authorization"],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 86400,
  });
}
