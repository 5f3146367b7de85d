// The public lookup API (/api/lookup, /api/lookup/batch, /api/bigquery):
// CORS for any origin, a body cap, and one token bucket per client address
// shared by the three routes. The web app's job routes are not limited.
import { bodyLimit } from "hono/body-limit";
import type { Config } from "../config.ts";
import type { AppDeps } from "../deps.ts";
import { lookupCors } from "../middleware/cors.ts";
import { rateLimit, RateLimiter } from "../middleware/rate_limit.ts";
import { batchCost, batchRoutes } from "./batch.ts";
import { bigQueryRoutes } from "./bigquery.ts";
import { apiRouter } from "./api_router.ts";
import { MAX_JSON_BYTES } from "./json_body.ts";
import { lookupRoutes } from "./lookup.ts";

export function rateLimiterFor(config: Config): RateLimiter {
  return new RateLimiter({
    perMinute: config.rateLimitPerMinute,
    burst: config.rateLimitBurst,
  });
}

export function publicApiRoutes(deps: Pick<AppDeps, "config" | "engine">) {
  const { trustProxy } = deps.config;
  const limiter = rateLimiterFor(deps.config);
  const cors = lookupCors();
  const overBodyCap = `The request body is over ${MAX_JSON_BYTES} bytes`;

  const app = apiRouter();
  app.use("/lookup", cors, rateLimit(limiter, { trustProxy }));
  app.use(
    "/lookup/batch",
    cors,
    bodyLimit({
      maxSize: MAX_JSON_BYTES,
      onError: (c) => c.json({ message: overBodyCap }, 413),
    }),
    rateLimit(limiter, { trustProxy, cost: batchCost }),
  );
  app.use(
    "/bigquery",
    cors,
    bodyLimit({
      maxSize: MAX_JSON_BYTES,
      onError: (c) => c.json({ errorMessage: overBodyCap }, 413),
    }),
    rateLimit(limiter, {
      trustProxy,
      cost: batchCost,
      refusalBody: (message) => ({ errorMessage: message }),
    }),
  );
  app.route("/", lookupRoutes(deps));
  app.route("/", batchRoutes(deps));
  app.route("/", bigQueryRoutes(deps));
  return app;
}
