// POST /api/bigquery: the BigQuery remote function protocol. BigQuery sends
// { requestId, caller, sessionUser, userDefinedContext, calls: [[ip], ...] }
// and expects { replies: [...] } with one JSON value per call in order, or
// { errorMessage } with a non-200 status, which fails the query.
import { createRoute } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { BATCH_MAX_IPS } from "../../shared/wire.ts";
import type { AppDeps } from "../deps.ts";
import { logError } from "../log.ts";
import { apiRouter } from "./api_router.ts";
import {
  BigQueryError,
  BigQueryReply,
  BigQueryRequest,
} from "./bigquery_schemas.ts";
import {
  jsonBody,
  jsonResponse,
  LOOKUP_SECURITY,
  lookupBodyRefusals,
  RATE_LIMIT_HEADERS,
} from "./documented_responses.ts";
import { optionsFor, selectedFields } from "./field_options.ts";
import { toLookupResponse } from "./lookup_answer.ts";
import { bodyRefusal } from "./validation_message.ts";

export const bigQueryRoute = createRoute({
  method: "post",
  path: "/bigquery",
  operationId: "bigQueryCall",
  security: LOOKUP_SECURITY,
  tags: ["BigQuery"],
  summary: "BigQuery remote function endpoint",
  description: "Called by BigQuery for a function created with CREATE " +
    "FUNCTION ... REMOTE WITH CONNECTION ... OPTIONS (endpoint = " +
    "'https://<host>/api/bigquery'). Set max_batching_rows = " +
    `${BATCH_MAX_IPS}, the most a call may hold. user_defined_context may ` +
    'hold "fields" (e.g. [("fields", "country,company,asn")]) to return ' +
    "only those fields. Each call counts once against the rate limit, " +
    "whatever its rows, so a query's calls fit the default limits; " +
    "BigQuery retries 429 answers on its own.",
  request: {
    body: jsonBody(BigQueryRequest),
  },
  responses: {
    ...lookupBodyRefusals(BigQueryError),
    200: {
      ...jsonResponse(BigQueryReply, "One reply per call, in order"),
      headers: RATE_LIMIT_HEADERS,
    },
    400: jsonResponse(
      BigQueryError,
      "A malformed request; BigQuery fails the query with " +
        "the message",
    ),
  },
});

export function bigQueryRoutes({ engine }: Pick<AppDeps, "engine">) {
  const app = apiRouter();
  // BigQuery shows errorMessage; answer every failure in that shape.
  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      return c.json({ errorMessage: error.message }, error.status);
    }
    logError("POST /api/bigquery failed:", error);
    return c.json({ errorMessage: "Internal error in the IP lookup" }, 500);
  });
  app.openapi(
    bigQueryRoute,
    async (c) => {
      const { calls, userDefinedContext } = c.req.valid("json");
      const fields = userDefinedContext?.fields;
      const options = optionsFor(fields);
      const ips = calls.map((call) => call[0]);
      const present = ips.filter((ip): ip is string => ip !== null);
      const found = await engine.enrichMany(present, options);
      let next = 0;
      const replies = ips.map((ip) =>
        ip === null
          ? null
          : selectedFields(toLookupResponse(found[next++]), fields)
      );
      c.header("Cache-Control", "no-store");
      return c.json({ replies }, 200);
    },
    // BigQuery shows errorMessage: validation failures answer in that shape.
    (result, c) => {
      if (result.success) return;
      const errorMessage = bodyRefusal(
        c,
        result,
        (body) =>
          typeof body === "object" && body !== null && !Array.isArray(body),
        'a BigQuery request: { "calls": [[ip], ...] }',
      );
      return c.json({ errorMessage }, 400);
    },
  );
  return app;
}
