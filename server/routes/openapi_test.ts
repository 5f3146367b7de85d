// The OpenAPI document describes every /api route the app registers, and
// nothing it does not; its schemas are the validators' and the field
// table's.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { ENRICHMENT_FIELD_TABLE } from "../../shared/enrichment_fields.ts";
import { appTest, startTestApp } from "../../tests/helpers/test_app.ts";

type Operation = { responses?: Record<string, unknown> };
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
};

const METHODS = ["get", "post", "put", "patch", "delete"];

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

appTest(
  "every /api route is in the OpenAPI document, and only those",
  {},
  async ({ app, hono }) => {
    const response = await app.request("/api/openapi.json");
    assertEquals(response.status, 200);
    const document: Document = await response.json();
    assertEquals(document.openapi, "3.1.0");

    const registered = registeredRoutes(hono.routes);
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
  },
);

appTest(
  "the document's request schemas are the validators' schemas",
  {},
  async ({ app }) => {
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
  },
);

appTest("OpenAPI document is served", {}, async ({ app }) => {
  const response = await app.request("/api/openapi.json");
  assertEquals(response.status, 200);
  assertEquals(response.headers.get("access-control-allow-origin"), "*");
  const body = await response.json();
  assertEquals(body.openapi, "3.1.0");
  ok(body.paths["/api/lookup"].get);
  ok(body.paths["/api/lookup/batch"].post);
  ok(body.paths["/api/bigquery"].post);
  ok(body.paths["/api/jobs/{id}"].get);
});

appTest(
  "cancel and restart document their 400, 401, 404 and 409",
  {},
  async ({ app }) => {
    const document = await (await app.request("/api/openapi.json")).json();
    for (const action of ["cancel", "restart"]) {
      const operation = document.paths[`/api/jobs/{id}/${action}`].post;
      assertEquals(
        Object.keys(operation.responses).sort(),
        ["200", "400", "401", "404", "409"],
        action,
      );
    }
  },
);

appTest(
  "enrichment fields in the document follow the field table",
  {},
  async ({ app }) => {
    const document = await (await app.request("/api/openapi.json")).json();
    const { LookupSuccess, EnrichmentData } = document.components.schemas;
    for (const schema of [LookupSuccess, EnrichmentData]) {
      for (const field of ENRICHMENT_FIELD_TABLE) {
        // Which address of a cell was used is a job row's, not a lookup's.
        if (schema === LookupSuccess && field.name === "ip_used") continue;
        const property = schema.properties[field.name];
        ok(property, field.name);
        assertEquals(property.type, [field.wire, "null"], field.name);
        assertEquals(property.example, field.example, field.name);
        const description = "description" in field
          ? field.description
          : undefined;
        assertEquals(property.description, description, field.name);
      }
    }
  },
);

Deno.test({
  name: "Redocly's recommended rules find no error and no warning",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { hono, close } = await startTestApp();
    const dir = await Deno.makeTempDir({ prefix: "ipenrich-openapi-" });
    try {
      const file = `${dir}/openapi.json`;
      const response = await hono.request("/api/openapi.json");
      await Deno.writeTextFile(file, await response.text());
      // The pinned version deno.json installs; nothing is fetched.
      const root = new URL("../../", import.meta.url).pathname;
      const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
      const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          config.imports["@redocly/cli"],
          "lint",
          "--extends=recommended",
          "--format=json",
          file,
        ],
        cwd: root,
        env: {
          REDOCLY_TELEMETRY: "off",
          REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
        },
      }).output();
      const text = new TextDecoder().decode(stdout);
      ok(text.includes('"totals"'), new TextDecoder().decode(stderr));
      const report = JSON.parse(text.slice(text.indexOf("{")));
      assertEquals(
        report.problems.map((p: { ruleId: string; message: string }) =>
          `${p.ruleId}: ${p.message}`
        ),
        [],
      );
      assertEquals(report.totals, { errors: 0, warnings: 0, ignored: 0 });
    } finally {
      await Deno.remove(dir, { recursive: true });
      await close();
    }
  },
});
