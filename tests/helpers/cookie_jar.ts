// Cookies for test clients, as a browser keeps them. Jobs belong to the
// visitor session that made them (private mode, the default), so a client
// that dropped the session cookie between calls would not see its own jobs.
//
// `visitor` is the one jar the helpers (client.ts, http.ts) share: the test
// process is one visitor. Test servers all start with TEST_SESSION_SECRET
// (server.ts), so its cookie holds on every test server and across restarts
// of one. Tests that need more visitors make their own CookieJar.

/** The secret every test server signs session cookies with. */
export const TEST_SESSION_SECRET = "test-session-secret-0123456789abcdef";

export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** The Cookie header for the next request, or undefined when empty. */
  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`)
      .join("; ");
  }

  /** Keeps the cookies a response sets (Max-Age=0 removes one). */
  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const removed = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (removed) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1).trim());
    }
  }

  /** fetch() sending and keeping this jar's cookies. */
  async fetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header();
    if (cookie !== undefined && !headers.has("cookie")) {
      headers.set("cookie", cookie);
    }
    const response = await fetch(input, { ...init, headers });
    this.keep(response);
    return response;
  }

  /** A WebSocket whose upgrade request carries this jar's cookies. */
  webSocket(url: string): WebSocket {
    const cookie = this.header();
    // Deno's WebSocket takes request headers (not in the browser API).
    const options = { headers: cookie ? { cookie } : {} };
    return new WebSocket(url, options as unknown as string[]);
  }

  /** The session cookie's value (after at least one answer set it). */
  get session(): string | undefined {
    return this.cookies.get("session");
  }
}

/** The test process's visitor, shared by the helpers. */
export const visitor = new CookieJar();

/** fetch() as the test process's visitor. */
export function sessionFetch(
  input: string | URL,
  init?: RequestInit,
): Promise<Response> {
  return visitor.fetch(input, init);
}

/**
 * The visitor's session cookie, making one on `baseUrl` first if the jar is
 * empty: to hand to a browser context (addCookies) so the page and the
 * test's own requests are the same visitor.
 */
export async function visitorCookie(
  baseUrl: string,
): Promise<{ name: string; value: string; url: string }> {
  if (visitor.session === undefined) {
    await (await sessionFetch(`${baseUrl}/api/config`)).body?.cancel();
  }
  const value = visitor.session;
  if (value === undefined) throw new Error(`${baseUrl} set no session cookie`);
  return { name: "session", value, url: baseUrl };
}
