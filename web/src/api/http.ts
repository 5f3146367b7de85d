// HTTP for the web app: every request goes through send(). Error messages
// read "{status}: {body}"; the GETs behind pages first say which call
// failed: "Failed to list jobs: 500 {body}".

/** Shown instead of the browser's "Failed to fetch" when the server is down. */
export const NETWORK_ERROR_MESSAGE =
  "Cannot reach the server. Check that the service is running and your connection works, then try again.";

/** An error with the HTTP status (0 when the server could not be reached). */
export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = "ApiError";
  }
}

/** Whether the server answered 404: the thing asked for is not there. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export async function send(url: string, init?: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: "include", ...init });
  } catch {
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
  }
  if (lockedOut(res)) location.reload();
  return res;
}

/**
 * Whether the server's ACCESS_PASSWORD lock refused the call (the session
 * is not signed in, e.g. after the password changed): reloading lets the
 * lock send the page to /signin. A lookup API key refusal (a Bearer
 * challenge) is an ordinary error.
 */
function lockedOut(res: Response): boolean {
  const challenge = res.headers.get("www-authenticate") ?? "";
  return res.status === 401 && !/^Bearer\b/i.test(challenge);
}

/** The body of an error answer: the `message` of a JSON body, else the text. */
async function errorText(res: Response): Promise<string> {
  return errorBodyText(await res.text().catch(() => ""));
}

/** An error body's text: the `message` of a JSON body, else the text. */
export function errorBodyText(body: string): string {
  const text = body.trim();
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed.message === "string") return parsed.message;
  } catch { /* not JSON */ }
  return text;
}

/**
 * Throws for a non-OK answer: "{status}: {body}", or with `prefix`
 * "{prefix}: {status} {body}"; the status text stands in for an empty body.
 */
export async function throwIfNotOk(
  res: Response,
  prefix?: string,
): Promise<void> {
  if (res.ok) return;
  const text = (await errorText(res)) || res.statusText;
  throw new ApiError(
    prefix ? `${prefix}: ${res.status} ${text}` : `${res.status}: ${text}`,
    res.status,
  );
}

/** A GET whose error names the call: "{prefix}: {status} {body}". */
export async function getJson<T>(url: string, prefix: string): Promise<T> {
  const res = await send(url);
  await throwIfNotOk(res, prefix);
  return await res.json() as T;
}

/** A request with an optional JSON body; non-OK answers throw. */
export async function apiRequest<T>(
  method: string,
  url: string,
  body?: unknown,
): Promise<T> {
  const res = await send(url, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfNotOk(res);
  return await res.json() as T;
}

/** The message of anything thrown, with a fallback. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
