// GET /api/openapi.json: an OpenAPI 3.1 document generated from the route
// declarations of the /api router it is mounted on.
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { BATCH_MAX_IPS } from "../../shared/wire.ts";
import type { AppDeps } from "../deps.ts";
import { lookupCors } from "../middleware/cors.ts";
import { apiRouter } from "./api_router.ts";
import {
  ErrorResponse,
  jsonResponse,
  LOOKUP_SECURITY,
  missingKeyResponse,
  RATE_LIMIT_HEADERS,
  SECURITY_SCHEMES,
} from "./documented_responses.ts";

const DESCRIPTION = `Enriches IP addresses with geolocation (DB-IP Lite, \
CC BY 4.0, https://db-ip.com), network (AS number and name), company and \
reverse DNS, from local databases.

The public lookup routes (tag Lookup and BigQuery) allow any origin (CORS) \
and are rate limited per client address with a token bucket: the \
RateLimit-* headers of each answer show the state, a 429 answer carries \
Retry-After. Each request counts once, a batch or BigQuery call of up to \
${BATCH_MAX_IPS} addresses too. When the server sets \
LOOKUP_API_KEYS, these routes need a key (Authorization: Bearer <key>, or \
?key=<key>; 401 without) and the limits count per key. The job routes (tag Jobs) drive \
the web app; job progress is also pushed over the WebSocket /ws \
(subscribe with {"type":"subscribe","jobId":N}).

Rate-limit headers: ${Object.keys(RATE_LIMIT_HEADERS).join(", ")}.`;

export const openApiRoute = createRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  security: LOOKUP_SECURITY,
  tags: ["Server"],
  summary: "This document",
  responses: {
    401: missingKeyResponse(ErrorResponse),
    200: jsonResponse(
      z.record(z.string(), z.any()).openapi({
        description: "OpenAPI 3.1",
      }),
      "The OpenAPI document",
    ),
  },
});

/** The document of every route declared on `api`, mounted at /api. */
export function openApiDocument(api: OpenAPIHono) {
  const documented = new OpenAPIHono().route("/api", api);
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
    documented.openAPIRegistry.registerComponent(
      "securitySchemes",
      name,
      scheme,
    );
  }
  return documented.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "IP Enrichment API",
      version: "1.0.0",
      description: DESCRIPTION,
      // What the answers carry: the geolocation is DB-IP Lite's.
      license: {
        name: "Geolocation data: DB-IP Lite, CC BY 4.0",
        url: "https://creativecommons.org/licenses/by/4.0/",
      },
    },
    // The server that serves this document; paths start with /api.
    servers: [{ url: "/", description: "This server" }],
    tags: [
      { name: "Lookup", description: "Single and batch lookups" },
      { name: "BigQuery", description: "BigQuery remote functions" },
      { name: "Jobs", description: "CSV uploads and background jobs" },
      { name: "Server", description: "Settings and this document" },
    ],
  });
}

/**
 * GET /openapi.json describing `api`, which must be the router this one is
 * mounted on (so the document lists itself). Generated on first request,
 * when every route is declared.
 */
export function openApiRoutes(
  api: OpenAPIHono,
  { access }: Pick<AppDeps, "access">,
) {
  const app = apiRouter();
  let document: Record<string, unknown> | undefined;
  // Part of the public lookup API: open, or behind LOOKUP_API_KEYS.
  app.use("/openapi.json", lookupCors(), access.apiKeys.guard());
  app.openapi(openApiRoute, (c) => {
    document ??= openApiDocument(api) as unknown as Record<string, unknown>;
    c.header("Cache-Control", "no-cache");
    return c.json(document, 200);
  });
  return app;
}
