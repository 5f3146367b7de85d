// A client generated from the OpenAPI document, as an integrator would make
// one: openapi-typescript writes the types, openapi-fetch calls through
// them. The calls are type-checked against the generated types (deno check)
// and then run against a real server; each public operation must answer as
// its types say.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import openapiTS, { astToString } from "openapi-typescript";
import { startServer } from "../helpers/server.ts";
import { NO_DNS } from "../helpers/http.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Every public operation, called through the generated client. */
const CALLS = `
import createClient from "openapi-fetch";
import type { paths } from "./api.ts";

const client = createClient<paths>({ baseUrl: Deno.args[0] });
const statuses: Record<string, unknown> = {};

const lookup = await client.GET("/api/lookup", {
  params: { query: { ip: "8.8.8.8", fields: "country,asn" } },
});
statuses.lookupAddress = [lookup.response.status, lookup.data];

const batch = await client.POST("/api/lookup/batch", {
  params: { query: { fields: "ip,country_code" } },
  body: ["1.1.1.1"],
});
statuses.lookupBatch = [batch.response.status, batch.data];

const bigQuery = await client.POST("/api/bigquery", {
  body: {
    calls: [["8.8.8.8"], [null]],
    userDefinedContext: { fields: "country_code" },
  },
});
statuses.bigQueryCall = [bigQuery.response.status, bigQuery.data];

const document = await client.GET("/api/openapi.json");
statuses.getOpenApiDocument = [
  document.response.status,
  document.data?.openapi,
];

const refused = await client.GET("/api/lookup", {
  params: { query: { ip: "8.8.8.8", fields: "color" } },
});
statuses.refused = [refused.response.status, refused.error];

console.log(JSON.stringify(statuses));
`;

Deno.test({
  name:
    "a client generated from the OpenAPI document calls every public operation",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({
      env: { ...NO_DNS, RATE_LIMIT_PER_MINUTE: "0" },
    });
    // Inside the checkout, so the calls resolve openapi-fetch as it does.
    await Deno.mkdir(`${ROOT}test-output`, { recursive: true });
    const dir = await Deno.makeTempDir({
      dir: `${ROOT}test-output`,
      prefix: "generated-client-",
    });
    try {
      const document = await (await fetch(`${server.url}/api/openapi.json`))
        .json();
      await Deno.writeTextFile(
        `${dir}/api.ts`,
        astToString(await openapiTS(document)),
      );
      await Deno.writeTextFile(`${dir}/calls.ts`, CALLS);
      const run = async (args: string[]) => {
        const { code, stdout, stderr } = await new Deno.Command(
          Deno.execPath(),
          { args, cwd: ROOT },
        ).output();
        const text = new TextDecoder().decode(stdout);
        assertEquals(code, 0, text + new TextDecoder().decode(stderr));
        return text;
      };
      await run(["check", `${dir}/calls.ts`]);
      const answers = JSON.parse(
        await run(["run", "-A", `${dir}/calls.ts`, server.url]),
      );
      assertEquals(answers.lookupAddress, [200, {
        country: "United States",
        asn: "AS15169 Google LLC",
        success: true,
      }]);
      assertEquals(answers.lookupBatch, [200, [
        { ip: "1.1.1.1", country_code: "AU", success: true },
      ]]);
      assertEquals(answers.bigQueryCall, [200, {
        replies: [{ country_code: "US", success: true }, null],
      }]);
      assertEquals(answers.getOpenApiDocument, [200, "3.1.0"]);
      assertEquals(answers.refused[0], 400);
      ok(answers.refused[1].error, JSON.stringify(answers.refused));
    } finally {
      await Deno.remove(dir, { recursive: true });
      await server.stop();
    }
  },
});
