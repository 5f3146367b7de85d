// Response descriptions the route declarations share: JSON bodies, errors,
// the rate-limit headers and the answers of the body and rate limits.
import { z } from "@hono/zod-openapi";

export const ErrorResponse = z.object({
  message: z.string(),
}).openapi("Error");

export const jsonResponse = <T extends z.ZodTypeAny>(
  schema: T,
  description: string,
) => ({
  description,
  content: { "application/json": { schema } },
});

/** A 4xx answer { message } with the condition it is given for. */
export const errorResponse = (description: string) =>
  jsonResponse(ErrorResponse, description);

const integerHeader = (description: string) => ({
  description,
  schema: { type: "integer" as const },
});

/** Headers on every answer of a rate-limited route (when limits are on). */
export const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": integerHeader(
    "Lookups a client may make at once (the burst)",
  ),
  "RateLimit-Remaining": integerHeader("Lookups left right now"),
  "RateLimit-Reset": integerHeader(
    "Seconds until the full burst is available again",
  ),
  "RateLimit-Policy": {
    description: 'The bucket and its refill window, e.g. "60;w=6"',
    schema: { type: "string" as const },
  },
};

/** The 429 answer of a rate-limited route, in the route's error shape. */
export function overRateLimitResponse(schema: z.ZodTypeAny) {
  return {
    description: "Over the rate limit for this client address",
    headers: {
      ...RATE_LIMIT_HEADERS,
      "Retry-After": integerHeader("Seconds to wait before trying again"),
    },
    content: { "application/json": { schema } },
  };
}

/** The 413 answer of a JSON route, in the route's error shape. */
export function bodyOverCapResponse(schema: z.ZodTypeAny) {
  return {
    description: "The body is over 1 MiB",
    content: { "application/json": { schema } },
  };
}
