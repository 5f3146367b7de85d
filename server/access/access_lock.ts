// ACCESS_PASSWORD: a lock in front of every page and job route. A browser
// is sent to a small sign-in page once; the session cookie then carries the
// "unlocked" mark. API clients send the password with HTTP Basic (any user
// name) on each request. The public lookup API is not behind this lock.
import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import { timingSafeEqual } from "hono/utils/buffer";
import { clientAddress, clientKey } from "../middleware/client_address.ts";
import { RateLimiter } from "../middleware/rate_limit.ts";
import type { VisitorSessions } from "./session.ts";
import { signInPage } from "./sign_in_page.ts";

export const LOCKED_MESSAGE =
  "This server is locked: sign in at /signin, or send the access password " +
  "with HTTP Basic authentication (any user name)";

/** The 429 text when a client has used up its wrong passwords. */
export function tooManyPasswordsMessage(waitSeconds: number): string {
  return `Too many wrong passwords from your address; try again in ` +
    `${waitSeconds} s.`;
}

export type PasswordCheck =
  | { kind: "right" }
  | { kind: "wrong" }
  | { kind: "wait"; seconds: number };

/**
 * Checks passwords against ACCESS_PASSWORD and counts the wrong ones per
 * client address, wherever they come from (the sign-in form or HTTP Basic):
 * ten tries a minute, so guessing stays slow and typos are fine.
 */
export class PasswordAttempts {
  readonly #limiter = new RateLimiter({ perMinute: 10, burst: 10 });

  constructor(
    private readonly password: string,
    private readonly trustProxy: number,
  ) {}

  async check(c: Context, given: string): Promise<PasswordCheck> {
    const key = clientKey(clientAddress(c, this.trustProxy));
    // The try is taken before the (asynchronous) comparison, so guesses
    // sent in parallel all count; a right password gives it back.
    const decision = this.#limiter.take(key);
    if (!decision.allowed) {
      return { kind: "wait", seconds: decision.retryAfterSeconds };
    }
    // Compared in the same time wherever they differ.
    if (!(await timingSafeEqual(given, this.password))) {
      return { kind: "wrong" };
    }
    this.#limiter.refund(key);
    return { kind: "right" };
  }
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
  attempts: PasswordAttempts | undefined,
  isOpen: (path: string) => boolean,
): MiddlewareHandler {
  return async (c, next) => {
    if (attempts === undefined || isOpen(c.req.path)) return await next();
    if (c.get("sessionUnlocked")) return await next();
    const given = basicPassword(c.req.header("authorization"));
    const check = given === undefined
      ? undefined
      : await attempts.check(c, given);
    if (check?.kind === "right") return await next();
    if (check?.kind === "wait") {
      return c.json(
        { message: tooManyPasswordsMessage(check.seconds) },
        429,
        { "Retry-After": String(check.seconds), "Cache-Control": "no-store" },
      );
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

/**
 * GET and POST /signin. Wrong passwords count as in the lock.
 * `stylesheets` gives the built app's stylesheets for the page.
 */
export function signInRoutes(
  sessions: VisitorSessions,
  attempts: PasswordAttempts | undefined,
  stylesheets: () => Promise<string[]> = () => Promise.resolve([]),
): Hono {
  const app = new Hono();
  app.get("/signin", async (c) => {
    const next = safeReturnPath(c.req.query("next"));
    if (attempts === undefined || c.get("sessionUnlocked")) {
      return c.redirect(next, 303);
    }
    return c.html(
      signInPage({ next, stylesheets: await stylesheets() }),
      200,
      { "Cache-Control": "no-store" },
    );
  });
  app.post("/signin", async (c) => {
    const form = await c.req.parseBody().catch(() => ({}));
    const field = (name: string) => {
      const value = (form as Record<string, unknown>)[name];
      return typeof value === "string" ? value : undefined;
    };
    const next = safeReturnPath(field("next"));
    if (attempts === undefined) return c.redirect(next, 303);
    const check = await attempts.check(c, field("password") ?? "");
    if (check.kind !== "right") {
      const wait = check.kind === "wait" ? String(check.seconds) : undefined;
      const error = check.kind === "wait"
        ? tooManyPasswordsMessage(check.seconds)
        : "That is not the access password.";
      return c.html(
        signInPage({ next, error, stylesheets: await stylesheets() }),
        wait ? 429 : 401,
        { ...(wait && { "Retry-After": wait }), "Cache-Control": "no-store" },
      );
    }
    sessions.issue(c, { id: c.get("sessionId"), unlocked: true });
    return c.redirect(next, 303);
  });
  return app;
}
