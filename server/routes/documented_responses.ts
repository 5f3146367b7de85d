// Response descriptions the route declarations share: JSON bodies, errors,
// the rate-limit headers and the answers of the body and rate limits; the
// frame of a job route.
import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";

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

/** A required JSON request body of `schema`. */
export const jsonBody = <T extends z.ZodTypeAny>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

/**
 * How callers prove who they are (OpenAPI security schemes). The public
 * lookup routes take an API key only when the server sets LOOKUP_API_KEYS;
 * the job routes answer per visitor session, and with ACCESS_PASSWORD set
 * need the password (HTTP Basic) or a signed-in session.
 */
export const SECURITY_SCHEMES = {
  apiKey: {
    type: "http" as const,
    scheme: "bearer",
    description: "A key of LOOKUP_API_KEYS (only when the server sets it)",
  },
  apiKeyQuery: {
    type: "apiKey" as const,
    in: "query" as const,
    name: "key",
    description: "The same key as ?key=, for clients that cannot set headers",
  },
  password: {
    type: "http" as const,
    scheme: "basic",
    description: "ACCESS_PASSWORD, any user name (only when the server " +
      "sets it)",
  },
  session: {
    type: "apiKey" as const,
    in: "cookie" as const,
    name: "session",
    description: "The visitor's session, set on the first answer; it " +
      "owns the jobs made with it and holds a sign-in at /signin",
  },
};

/** Public lookup routes: open, or a key when the server requires one. */
export const LOOKUP_SECURITY: Record<string, string[]>[] = [
  {},
  { apiKey: [] },
  { apiKeyQuery: [] },
];

/** Job routes: the session, and the password when the server is locked. */
export const JOB_SECURITY: Record<string, string[]>[] = [
  {},
  { session: [] },
  { password: [] },
];

/** The 401 of a public route when LOOKUP_API_KEYS is set and no key came. */
export function missingKeyResponse(schema: z.ZodTypeAny) {
  return jsonResponse(
    schema,
    "No valid API key, when the server sets LOOKUP_API_KEYS",
  );
}

/** The 401 of a job route when ACCESS_PASSWORD is set and not given. */
export const lockedResponse = () =>
  jsonResponse(
    ErrorResponse,
    "The server is locked (ACCESS_PASSWORD) and no password or " +
      "signed-in session came",
  );

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

/**
 * The refusals of a public lookup route with a JSON body (no key, body over
 * its cap, over the rate limit), in the route's error shape.
 */
export function lookupBodyRefusals(schema: z.ZodTypeAny) {
  return {
    401: missingKeyResponse(schema),
    413: jsonResponse(schema, "The body is over 1 MiB"),
    429: overRateLimitResponse(schema),
  };
}

/** A job route: its security, its tag and its 401 when the server is locked. */
export function jobRoute<R extends Omit<RouteConfig, "security" | "tags">>(
  route: R,
) {
  return createRoute({
    ...route,
    security: JOB_SECURITY,
    tags: ["Jobs"],
    responses: { 401: lockedResponse(), ...route.responses },
  });
}
