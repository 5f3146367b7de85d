// GET /api/lookup?ip=: the single-lookup shape of SPEC.md section 3, from
// the same engine the jobs use.
import { Hono } from "hono";
import type { LookupResponse } from "../../shared/wire.ts";
import type { AppDeps } from "../app.ts";
import { ALL_OPTIONS, type Enrichment } from "../enrichment/types.ts";

export const INVALID_FORMAT = "Invalid IP address format";

export function toLookupResponse(e: Enrichment): LookupResponse {
  if (!e.success) {
    return { ip: e.ip, success: false, error: e.error ?? INVALID_FORMAT };
  }
  const { error: _e, ...fields } = e;
  return { ...fields, success: true };
}

export function lookupRoutes({ engine }: AppDeps) {
  const app = new Hono();
  app.get("/", async (c) => {
    const ip = (c.req.query("ip") ?? "").trim();
    if (ip === "") {
      return c.json({ ip, success: false, error: INVALID_FORMAT }, 400);
    }
    const result = await engine.enrich(ip, ALL_OPTIONS);
    if (!result.success && result.error === "Invalid IP address") {
      return c.json({ ip, success: false, error: INVALID_FORMAT }, 400);
    }
    return c.json(toLookupResponse(result));
  });
  return app;
}
