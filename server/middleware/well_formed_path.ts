// A path whose %-escapes do not decode to UTF-8 text (`/%ff`) names nothing
// here: it gets a 400 before any route or log sees it, instead of a URIError
// (a 500) wherever the path is decoded.
import type { MiddlewareHandler } from "hono";

export const BROKEN_PATH_MESSAGE =
  "The address is not valid: a %-escape in its path does not stand for " +
  "UTF-8 text";

export function wellFormedPath(): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
      .replace(/[?#].*$/s, "");
    try {
      decodeURIComponent(raw);
    } catch {
      return c.json({ message: BROKEN_PATH_MESSAGE }, 400);
    }
    await next();
  };
}
