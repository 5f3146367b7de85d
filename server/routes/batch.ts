// POST /api/lookup/batch: up to 1,000 addresses in one request, answered in
// order; an entry that is not an address fails alone. Reverse DNS runs
// concurrently under the engine's limits, each distinct address once.
import { createRoute } from "@hono/zod-openapi";
import { BATCH_MAX_IPS } from "../../shared/wire.ts";
import type { AppDeps } from "../deps.ts";
import { apiRouter } from "./api_router.ts";
import {
  ErrorResponse,
  jsonBody,
  jsonResponse,
  LOOKUP_SECURITY,
  lookupBodyRefusals,
  RATE_LIMIT_HEADERS,
} from "./documented_responses.ts";
import { toLookupResponse } from "./lookup_answer.ts";
import { lookupWork } from "./registration_option.ts";
import { selectedFields } from "./field_options.ts";
import { BatchQuery, BatchRequest, BatchResponse } from "./lookup_schemas.ts";
import { bodyRefusal } from "./validation_message.ts";

export const batchRoute = createRoute({
  method: "post",
  path: "/lookup/batch",
  operationId: "lookupBatch",
  security: LOOKUP_SECURITY,
  tags: ["Lookup"],
  summary: `Look up to ${BATCH_MAX_IPS} IP addresses`,
  description: "The body is a JSON array of addresses or " +
    '{ "ips": [...] }; the answer holds one single-lookup object per ' +
    "address in the same order; fields= keeps only the fields named. " +
    "The request counts once against the rate limit, as a single lookup " +
    "does.",
  request: {
    query: BatchQuery,
    body: jsonBody(BatchRequest),
  },
  responses: {
    ...lookupBodyRefusals(ErrorResponse),
    200: {
      ...jsonResponse(BatchResponse, "One answer per address, in order"),
      headers: RATE_LIMIT_HEADERS,
    },
    400: jsonResponse(
      ErrorResponse,
      `Not JSON, not a list of strings, or over ${BATCH_MAX_IPS}`,
    ),
  },
});

export function batchRoutes(
  deps: Pick<AppDeps, "engine" | "config" | "rdapPacer" | "rdapCache">,
) {
  const { engine } = deps;
  const app = apiRouter();
  app.openapi(
    batchRoute,
    async (c) => {
      const body = c.req.valid("json");
      const { fields } = c.req.valid("query");
      const ips = Array.isArray(body) ? body : body.ips;
      const { options, adjust } = lookupWork(
        deps,
        fields,
        !Array.isArray(body) && body.registration,
      );
      const results = await engine.enrichMany(ips, options, adjust);
      c.header("Cache-Control", "no-store");
      return c.json(
        results.map((e) =>
          selectedFields(toLookupResponse(e, adjust !== undefined), fields)
        ),
        200,
      );
    },
    (result, c) => {
      if (result.success) return;
      const message = bodyRefusal(
        c,
        result,
        (body) => typeof body === "object" && body !== null,
        'a JSON array of IP addresses or { "ips": [...] }',
      );
      return c.json({ message }, 400);
    },
  );
  return app;
}
