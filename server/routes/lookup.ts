// GET /api/lookup?ip=: the single-lookup shape of SPEC.md section 3 plus
// country_code, hostname and network_type, from the engine the jobs use.
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { AppDeps } from "../app.ts";
import { ALL_OPTIONS } from "../enrichment/types.ts";
import {
  ErrorResponse,
  INVALID_FORMAT,
  LookupFailure,
  LookupQuery,
  LookupResult,
  RATE_LIMIT_HEADERS,
  toLookupResponse,
  tooManyRequests,
} from "./schemas.ts";

export { INVALID_FORMAT, toLookupResponse };

/** The data changes with the monthly database releases. */
export const LOOKUP_CACHE_CONTROL = "public, max-age=86400";

export const lookupRoute = createRoute({
  method: "get",
  path: "/lookup",
  tags: ["Lookup"],
  summary: "Look up one IP address",
  description: "Geolocation, network, company and reverse DNS of one IPv4 " +
    "or IPv6 address. Private and reserved addresses answer success false " +
    "with the reason. Cacheable for a day.",
  request: { query: LookupQuery },
  responses: {
    200: {
      description: "The address's data, or why there is none",
      headers: {
        ...RATE_LIMIT_HEADERS,
        "Cache-Control": {
          description: LOOKUP_CACHE_CONTROL,
          schema: { type: "string" },
        },
      },
      content: { "application/json": { schema: LookupResult } },
    },
    400: {
      description: `No ip, or not an IP address (${INVALID_FORMAT})`,
      content: { "application/json": { schema: LookupFailure } },
    },
    429: tooManyRequests(ErrorResponse),
  },
});

export function lookupRoutes({ engine }: Pick<AppDeps, "engine">) {
  const app = new OpenAPIHono();
  app.openapi(
    lookupRoute,
    async (c) => {
      const { ip } = c.req.valid("query");
      const result = toLookupResponse(await engine.enrich(ip, ALL_OPTIONS));
      if (!result.success && result.error === INVALID_FORMAT) {
        return c.json(result, 400);
      }
      c.header("Cache-Control", LOOKUP_CACHE_CONTROL);
      return c.json(result, 200);
    },
    (result, c) => {
      if (result.success) return;
      const ip = (c.req.query("ip") ?? "").trim();
      return c.json(
        { ip, success: false as const, error: INVALID_FORMAT },
        400,
      );
    },
  );
  return app;
}
