// ACCESS_PASSWORD: a lock in front of every page and job route. A browser
// is sent to a small sign-in page once; the session cookie then carries the
// "unlocked" mark. API clients send the password with HTTP Basic (any user
// name) on each request. The public lookup API is not behind this lock.
import { Hono } from "hono";
import type { MiddlewareHandler } from "hono";
import { clientAddress, clientKey } from "../middleware/client_address.ts";
import { RateLimiter } from "../middleware/rate_limit.ts";
import type { VisitorSessions } from "./session.ts";
import { signInPage } from "./sign_in_page.ts";

export const LOCKED_MESSAGE =
  "This server is locked: sign in at /signin, or send the access password " +
  "with HTTP Basic authentication (any user name)";

const encoder = new TextEncoder();

/** Equality of two secrets that takes the same time wherever they differ. */
export async function sameSecret(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all(
    [a, b].map(async (s) =>
      new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(s)))
    ),
  );
  let difference = 0;
  for (let i = 0; i < x.length; i++) difference |= x[i] ^ y[i];
  return difference === 0;
}

/** The password of an `Authorization: Basic` header, or undefined. */
export function basicPassword(header: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match) return undefined;
  try {
    const bytes = Uint8Array.from(atob(match[1]), (ch) => ch.charCodeAt(0));
    const text = new TextDecoder().decode(bytes);
    const colon = text.indexOf(":");
    return colon < 0 ? undefined : text.slice(colon + 1);
  } catch {
    return undefined;
  }
}

/** A local path to return to after signing in; anything else is "/". */
export function safeReturnPath(next: string | undefined): string {
  if (!next || !next.startsWith("/") || /^\/[\/\\]/.test(next)) return "/";
  // Control characters (a CR/LF would split the Location header).
  return [...next].some((ch) => ch.charCodeAt(0) < 0x20) ? "/" : next;
}

/** Whether a request is for a page (sent to /signin) rather than data. */
function wantsPage(method: string, path: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  return path === "/api" || !(path.startsWith("/api/") || path === "/ws");
}

/**
 * The lock. Needs VisitorSessions.middleware before it; `isOpen` names the
 * paths that stay open (the sign-in page, the public lookup API).
 */
export function accessLock(
  password: string | undefined,
  isOpen: (path: string) => boolean,
): MiddlewareHandler {
  return async (c, next) => {
    if (password === undefined || isOpen(c.req.path)) return await next();
    if (c.get("sessionUnlocked")) return await next();
    const given = basicPassword(c.req.header("authorization"));
    if (given !== undefined && await sameSecret(given, password)) {
      return await next();
    }
    if (wantsPage(c.req.method, c.req.path)) {
      const url = new URL(c.req.url);
      const back = encodeURIComponent(url.pathname + url.search);
      c.header("Cache-Control", "no-store");
      return c.redirect(`/signin?next=${back}`, 303);
    }
    // No Basic challenge to a page's own fetch (Sec-Fetch-Mode other than
    // navigate): the browser would hold the request behind its password
    // dialog. The web app reloads on this 401, and the lock sends the page
    // to /signin. API clients (no Sec-Fetch-Mode) get the challenge.
    const mode = c.req.header("sec-fetch-mode");
    const challenge = mode === undefined || mode === "navigate"
      ? { "WWW-Authenticate": 'Basic realm="IP Enrichment", charset="UTF-8"' }
      : undefined;
    return c.json({ message: LOCKED_MESSAGE }, 401, challenge);
  };
}

/** GET and POST /signin. Attempts are limited per client address. */
export function signInRoutes(
  sessions: VisitorSessions,
  password: string | undefined,
  trustProxy: number,
): Hono {
  // Ten tries a minute per address: guessing stays slow, typos are fine.
  const attempts = new RateLimiter({ perMinute: 10, burst: 10 });
  const app = new Hono();
  app.get("/signin", (c) => {
    const next = safeReturnPath(c.req.query("next"));
    if (password === undefined || c.get("sessionUnlocked")) {
      return c.redirect(next, 303);
    }
    return c.html(signInPage({ next }), 200, { "Cache-Control": "no-store" });
  });
  app.post("/signin", async (c) => {
    const form = await c.req.parseBody().catch(() => ({}));
    const field = (name: string) => {
      const value = (form as Record<string, unknown>)[name];
      return typeof value === "string" ? value : undefined;
    };
    const next = safeReturnPath(field("next"));
    if (password === undefined) return c.redirect(next, 303);
    const decision = attempts.take(clientKey(clientAddress(c, trustProxy)));
    if (!decision.allowed) {
      const wait = decision.retryAfterSeconds;
      return c.html(
        signInPage({
          next,
          error: `Too many attempts; try again in ${wait} s.`,
        }),
        429,
        { "Retry-After": String(wait), "Cache-Control": "no-store" },
      );
    }
    const given = field("password") ?? "";
    if (!(await sameSecret(given, password))) {
      return c.html(
        signInPage({ next, error: "That is not the access password." }),
        401,
        { "Cache-Control": "no-store" },
      );
    }
    sessions.issue(c, { id: c.get("sessionId"), unlocked: true });
    return c.redirect(next, 303);
  });
  return app;
}
