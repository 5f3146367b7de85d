// GET /api/config: the server's settings the web app follows (upload sizes,
// rate limits, batch size, whose jobs a visitor sees, the operator's contact)
// and the data it answers from, with its age.
import { createRoute } from "@hono/zod-openapi";
import { BATCH_MAX_IPS } from "../../shared/wire.ts";
import type { AppDeps } from "../deps.ts";
import { readUpdateStatus } from "../databases/update_status.ts";
import { apiRouter } from "./api_router.ts";
import {
  JOB_SECURITY,
  jsonResponse,
  lockedResponse,
} from "./documented_responses.ts";
import { PublicConfig } from "./job_schemas.ts";

export const configRoute = createRoute({
  method: "get",
  path: "/config",
  operationId: "getConfig",
  security: JOB_SECURITY,
  tags: ["Server"],
  summary: "Settings the web app follows",
  responses: {
    401: lockedResponse(),
    200: jsonResponse(PublicConfig, "The settings"),
  },
});

export function configRoutes(
  { config, engine }: Pick<AppDeps, "config" | "engine">,
) {
  const app = apiRouter();
  app.openapi(configRoute, async (c) => {
    const {
      maxUploadMb,
      maxUncompressedMb,
      rateLimitPerMinute,
      rateLimitBurst,
    } = config;
    // Limits are off when either number is 0; the page then shows none.
    const limited = rateLimitPerMinute > 0 && rateLimitBurst > 0;
    return c.json({
      maxUploadMb,
      maxUncompressedMb,
      rateLimitPerMinute: limited ? rateLimitPerMinute : 0,
      rateLimitBurst: limited ? rateLimitBurst : 0,
      batchMaxIps: BATCH_MAX_IPS,
      rdap: { enabled: config.rdap.enabled, rate: config.rdap.rate },
      jobsVisibility: config.access.jobsVisibility,
      contact: config.contact,
      data: {
        version: engine.data.version,
        databases: engine.data.databases,
        maxAgeDays: config.dataMaxAgeDays,
        lastUpdate: await readUpdateStatus(config.dataDir),
      },
    }, 200);
  });
  return app;
}
