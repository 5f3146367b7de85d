// call(): one request to a real server, the answer parsed as JSON where it
// is JSON; as the test process's visitor (its session cookie is sent and
// kept).
import { sessionFetch } from "./cookie_jar.ts";
import type { RunningServer } from "./server.ts";

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = unknown>(
  server: Pick<RunningServer, "url">,
  path: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<Answer<T>> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set("content-type", "application/json");
  const response = await sessionFetch(`${server.url}${path}`, {
    ...rest,
    method: rest.method ?? (json !== undefined ? "POST" : "GET"),
    headers,
    body: json === undefined
      ? rest.body
      : typeof json === "string"
      ? json
      : JSON.stringify(json),
  });
  return answerOf<T>(response);
}

/** A response's status, headers and body: parsed JSON, else its text. */
export async function answerOf<T = unknown>(
  response: Response,
): Promise<Answer<T>> {
  const text = await response.text();
  let body: unknown = text === "" ? null : text;
  try {
    body = JSON.parse(text);
  } catch { /* not JSON */ }
  return {
    status: response.status,
    headers: response.headers,
    body: body as T,
  };
}

/** Servers for API tests: no real DNS (nothing listens on port 9). */
export const NO_DNS = { DNS_SERVERS: "127.0.0.1:9", DNS_TIMEOUT_MS: "50" };
