// The public lookup API (/api/lookup, /api/lookup/batch, /api/bigquery):
// CORS for any origin, a body cap, and one token bucket per client address
// (or per API key) shared by the three routes, a request a token. The web
// app's job routes are not limited. With LOOKUP_API_KEYS set, a key is
// required (checked after CORS, so a 401 is readable from a page, and before
// the limiter, which then counts per key).
import { bodyLimit } from "hono/body-limit";
import type { AppDeps } from "../deps.ts";
import { apiKeyRateKey } from "../access/api_keys.ts";
import { lookupCors } from "../middleware/cors.ts";
import { rateLimit, RateLimiter } from "../middleware/rate_limit.ts";
import { batchRoutes } from "./batch.ts";
import { bigQueryRoutes } from "./bigquery.ts";
import { apiRouter } from "./api_router.ts";
import { MAX_JSON_BYTES } from "./json_body.ts";
import { lookupRoutes } from "./lookup.ts";

export function publicApiRoutes(
  deps: Pick<
    AppDeps,
    "config" | "engine" | "access" | "rdapPacer" | "rdapCache"
  >,
) {
  const { trustProxy, rateLimitPerMinute, rateLimitBurst } = deps.config;
  const requireKey = deps.access.apiKeys.guard();
  const requireKeyBigQuery = deps.access.apiKeys.guard({
    body: (message) => ({ errorMessage: message }),
  });

  const limiter = new RateLimiter({
    perMinute: rateLimitPerMinute,
    burst: rateLimitBurst,
  });
  const cors = lookupCors();
  /** The body cap, its 413 in the route's error shape. */
  const bodyCap = (answer: (message: string) => Record<string, string>) =>
    bodyLimit({
      maxSize: MAX_JSON_BYTES,
      onError: (c) =>
        c.json(answer(`The request body is over ${MAX_JSON_BYTES} bytes`), 413),
    });

  const app = apiRouter();
  const limits = { trustProxy, key: apiKeyRateKey };
  app.use("/lookup", cors, requireKey, rateLimit(limiter, limits));
  app.use(
    "/lookup/batch",
    cors,
    requireKey,
    bodyCap((message) => ({ message })),
    rateLimit(limiter, limits),
  );
  app.use(
    "/bigquery",
    cors,
    requireKeyBigQuery,
    bodyCap((errorMessage) => ({ errorMessage })),
    rateLimit(limiter, {
      ...limits,
      refusalBody: (message) => ({ errorMessage: message }),
    }),
  );
  app.route("/", lookupRoutes(deps));
  app.route("/", batchRoutes(deps));
  app.route("/", bigQueryRoutes(deps));
  return app;
}
