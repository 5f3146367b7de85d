// GET /api/lookup?ip=: one address's data (geolocation, host name, company,
// network type, ISP, ASN), from the engine the jobs use.
import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { apiRouter } from "./api_router.ts";
import {
  ErrorResponse,
  jsonResponse,
  LOOKUP_SECURITY,
  missingKeyResponse,
  overRateLimitResponse,
  RATE_LIMIT_HEADERS,
} from "./documented_responses.ts";
import { NOT_AN_IP_ADDRESS } from "./failure_text.ts";
import { toLookupResponse } from "./lookup_answer.ts";
import { lookupWork } from "./registration_option.ts";
import { selectedFields } from "./field_options.ts";
import { LookupAnswer, LookupFailure, LookupQuery } from "./lookup_schemas.ts";

/** The data changes with the monthly database releases. */
export const LOOKUP_CACHE_CONTROL = "public, max-age=86400";
/**
 * With LOOKUP_API_KEYS a shared cache must not keep the answer: `public`
 * would let it serve the answer to callers without a key (RFC 9111 3.5).
 * The caller's own cache may, per credentials (Vary: Authorization).
 */
export const KEYED_LOOKUP_CACHE_CONTROL = "private, max-age=86400";

export const lookupRoute = createRoute({
  method: "get",
  path: "/lookup",
  operationId: "lookupAddress",
  security: LOOKUP_SECURITY,
  tags: ["Lookup"],
  summary: "Look up one IP address",
  description: "Geolocation, network, company and reverse DNS of one IPv4 " +
    "or IPv6 address. The rule of the lookup routes: an answer about the " +
    "address is 200 and says in success whether it has data; text that is " +
    `not an address (${NOT_AN_IP_ADDRESS}), a private or reserved range ` +
    "and an address no database knows answer success false with the " +
    "reason, as that entry of a batch would. 400 is for a request that " +
    "cannot be read: no ip, or an unknown field in fields=. fields= keeps " +
    "only the fields named. Cacheable for a day.",
  request: { query: LookupQuery },
  responses: {
    401: missingKeyResponse(LookupFailure),
    200: {
      description: "The address's data, or why there is none",
      headers: {
        ...RATE_LIMIT_HEADERS,
        "Cache-Control": {
          description: `${LOOKUP_CACHE_CONTROL}; ` +
            `${KEYED_LOOKUP_CACHE_CONTROL} when the server requires API keys`,
          schema: { type: "string" },
        },
        Vary: {
          description: "Authorization, when the server requires API keys",
          schema: { type: "string" },
        },
      },
      content: { "application/json": { schema: LookupAnswer } },
    },
    400: jsonResponse(LookupFailure, "No ip, or an unknown field in fields="),
    429: overRateLimitResponse(ErrorResponse),
  },
});

export function lookupRoutes(
  deps: Pick<
    AppDeps,
    "engine" | "config" | "rdapPacer" | "rdapCache" | "access"
  >,
) {
  const { engine } = deps;
  const keyed = deps.access.apiKeys.enabled;
  const app = apiRouter();
  app.openapi(
    lookupRoute,
    async (c) => {
      const { ip, registration, fields } = c.req.valid("query");
      const { options, adjust } = lookupWork(deps, fields, registration);
      const found = await engine.enrich(ip, options, adjust);
      const result = toLookupResponse(found, adjust !== undefined);
      if (keyed) {
        c.header("Cache-Control", KEYED_LOOKUP_CACHE_CONTROL);
        c.header("Vary", "Authorization", { append: true });
      } else c.header("Cache-Control", LOOKUP_CACHE_CONTROL);
      return c.json(selectedFields(result, fields), 200);
    },
    // This route answers a refused request in the lookup failure shape:
    // what is wrong with ip= or fields=.
    (result, c) => {
      if (result.success) return;
      const ip = (c.req.query("ip") ?? "").trim();
      const issue = result.error.issues[0];
      const error = issue.path[0] === "fields"
        ? `fields: ${issue.message}`
        : issue.message;
      return c.json({ ip, success: false as const, error }, 400);
    },
  );
  return app;
}
