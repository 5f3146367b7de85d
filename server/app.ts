// Builds the HTTP app from its dependencies (no globals), so tests and the
// server entry point compose it the same way.
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { HTTPException } from "hono/http-exception";
import type { AppDeps } from "./deps.ts";
import { ApiError } from "./http_error.ts";
import { logError } from "./log.ts";
import { wellFormedPath } from "./middleware/well_formed_path.ts";
import { apiRouter } from "./routes/api_router.ts";
import { configRoutes } from "./routes/config.ts";
import { jobRoutes } from "./routes/jobs.ts";
import { unmatchedApiRequest } from "./routes/method_not_allowed.ts";
import { openApiRoutes } from "./routes/openapi.ts";
import { publicApiRoutes } from "./routes/public_api.ts";
import { uploadRoutes } from "./routes/upload.ts";
import { prerenderedPage, webRoutes } from "./routes/web.ts";
import { JobUpdateHub, wsRoutes } from "./routes/ws.ts";

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  const hub = new JobUpdateHub(deps);

  app.use(
    "*",
    secureHeaders({
      xFrameOptions: "DENY",
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'", "ws:", "wss:"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    }),
  );

  app.use("*", wellFormedPath());

  // Sessions, the ACCESS_PASSWORD lock, the cross-site guard and /signin:
  // before every route, so no route is reachable without them.
  deps.access.install(app);

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      return c.json(
        { message: error.message, ...(error.title && { title: error.title }) },
        error.status,
      );
    }
    if (error instanceof HTTPException) {
      return c.json({ message: error.message || "Bad request" }, error.status);
    }
    logError(c.req.method, c.req.path, "failed:", error);
    return c.json(
      { message: "Something went wrong on the server; it has been logged." },
      500,
    );
  });

  const api = apiRouter();
  // /lookup, /lookup/batch, /bigquery: CORS and rate limits of their own.
  api.route("/", publicApiRoutes(deps));
  api.route("/", uploadRoutes(deps));
  api.route("/", jobRoutes(deps));
  api.route("/", configRoutes(deps));
  api.route("/", openApiRoutes(api, deps));
  // Read at request time: by then every route of the app is declared.
  api.all("*", (c) => unmatchedApiRequest(app, c));
  // /api itself is the API documentation page; everything below it is JSON.
  app.get("/api", async (c, next) => {
    const page = await prerenderedPage(deps.config.webDir, "api");
    return page ? c.html(page) : await next();
  });
  app.route("/api", api);
  app.route("/ws", wsRoutes(hub));
  app.route("/", webRoutes(deps.config.webDir, deps.config.contact));
  return app;
}
