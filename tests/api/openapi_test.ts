// The OpenAPI document describes every /api route the app registers, and
// nothing it does not.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { JobEvents } from "../../server/jobs/job_events.ts";

type Operation = { responses?: Record<string, unknown> };
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
};

const METHODS = ["get", "post", "put", "patch", "delete"];

async function buildApp() {
  const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-openapi-" });
  // Only the route table is needed: the handlers are never called.
  const app = createApp({
    config: loadConfig({ DATA_DIR: dataDir }),
    store: {} as never,
    engine: { enrichMany: () => Promise.resolve([]) } as never,
    runner: {} as never,
    events: new JobEvents(),
  });
  return { app, dataDir };
}

/** METHOD /api/path/{param} of every handler registered under /api. */
function registeredRoutes(
  routes: { method: string; path: string }[],
): Set<string> {
  const found = new Set<string>();
  for (const { method, path } of routes) {
    // Middleware and the JSON 404 fallback are registered for ALL methods.
    if (method === "ALL" || !path.startsWith("/api/") || path.includes("*")) {
      continue;
    }
    found.add(`${method} ${path.replace(/:(\w+)/g, "{$1}")}`);
  }
  return found;
}

function documentedRoutes(document: Document): Set<string> {
  const found = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of Object.keys(item)) {
      if (METHODS.includes(method)) {
        found.add(`${method.toUpperCase()} ${path}`);
      }
    }
  }
  return found;
}

Deno.test("every /api route is in the OpenAPI document, and only those", async () => {
  const { app, dataDir } = await buildApp();
  try {
    const response = await app.request("/api/openapi.json");
    assertEquals(response.status, 200);
    const document: Document = await response.json();
    assertEquals(document.openapi, "3.1.0");

    const registered = registeredRoutes(app.routes);
    const documented = documentedRoutes(document);
    ok(registered.size >= 15, `found only ${[...registered].join(", ")}`);
    const missing = [...registered].filter((r) => !documented.has(r));
    assertEquals(missing, [], "registered but not documented");
    const extra = [...documented].filter((r) => !registered.has(r));
    assertEquals(extra, [], "documented but not registered");

    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        ok(
          Object.keys(operation.responses ?? {}).length > 0,
          `${method} ${path} has no responses`,
        );
      }
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("the document's request schemas are the validators' schemas", async () => {
  const { app, dataDir } = await buildApp();
  try {
    const document = await (await app.request("/api/openapi.json")).json();
    const schemas = document.components.schemas;
    // Limits the validators enforce appear in the document.
    const batch = schemas.BatchLookupRequest.anyOf;
    assertEquals(batch[0].maxItems, 1000);
    assertEquals(batch[1].properties.ips.maxItems, 1000);
    assertEquals(schemas.BigQueryRequest.properties.calls.maxItems, 1000);
    assertEquals(schemas.BigQueryRequest.required, ["calls"]);
    const lookup = document.paths["/api/lookup"].get;
    assertEquals(lookup.parameters[0].name, "ip");
    assertEquals(lookup.parameters[0].required, true);
    ok(lookup.responses["429"].headers["Retry-After"]);
    // The example BigQuery request in the document passes validation.
    const example = schemas.BigQueryRequest.example;
    const answer = await app.request("/api/bigquery", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...example, calls: [] }),
    });
    assertEquals(answer.status, 200);
    assertEquals(await answer.json(), { replies: [] });
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
