// Reads a JSON request body with a size cap (byte_limits.ts), turning bad
// JSON into a 400.
import type { MiddlewareHandler } from "hono";
import { boundedText } from "../byte_limits.ts";
import { ApiError, badRequest } from "../http_error.ts";

export const MAX_JSON_BYTES = 1024 * 1024;

/** The answer to a JSON route's body sent with another Content-Type. */
export const NOT_JSON_BODY =
  "Send the body as JSON with the header Content-Type: application/json";

const bodyOverCap = (maxBytes: number) =>
  new ApiError(413, `The request body is larger than ${maxBytes} bytes`);

export async function readJsonBody(
  request: Request,
  maxBytes = MAX_JSON_BYTES,
): Promise<unknown> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBytes) throw bodyOverCap(maxBytes);
  const text = await boundedText(request.body, maxBytes);
  if (text === null) throw bodyOverCap(maxBytes);
  if (text.trim() === "") throw badRequest("The request body is empty");
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("The request body is not valid JSON");
  }
}

/**
 * Route middleware for a JSON route's validator: reads the body with the
 * cap and messages above, whatever its Content-Type (`curl -d` sends
 * application/x-www-form-urlencoded), and hands the parsed value to the
 * validator as the request's JSON.
 */
export const jsonBodyOfAnyType: MiddlewareHandler = async (c, next) => {
  const body = await readJsonBody(c.req.raw);
  if (!isJsonType(c.req.header("content-type"))) {
    const headers = new Headers(c.req.raw.headers);
    headers.set("content-type", "application/json");
    c.req.raw = new Request(c.req.raw.url, { method: c.req.method, headers });
  }
  c.req.bodyCache.json = Promise.resolve(body);
  await next();
};

/** Whether a Content-Type is JSON (application/json, application/x+json). */
export const isJsonType = (type: string | undefined) =>
  /^application\/([\w.-]+\+)?json$/i.test((type ?? "").split(";")[0].trim());
