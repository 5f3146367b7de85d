import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Hono } from "hono";
import { EXPOSED_HEADERS, lookupCors } from "./cors.ts";

const app = new Hono();
app.use("/x", lookupCors());
app.post("/x", (c) => c.json({ ok: true }, 429, { "Retry-After": "5" }));

Deno.test("preflight from another origin is allowed for JSON POSTs with a key", async () => {
  const response = await app.request("/x", {
    method: "OPTIONS",
    headers: {
      Origin: "https://notebook.example",
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type,authorization",
    },
  });
  assertEquals(response.status, 204);
  assertEquals(response.headers.get("Access-Control-Allow-Origin"), "*");
  ok(response.headers.get("Access-Control-Allow-Methods")?.includes("POST"));
  assertEquals(
    response.headers.get("Access-Control-Allow-Headers"),
    "Content-Type,Authorization", // Authorization: Bearer <lookup API key>
  );
});

Deno.test("answers, 429s included, expose the rate-limit headers", async () => {
  const response = await app.request("/x", {
    method: "POST",
    headers: { Origin: "https://notebook.example" },
  });
  assertEquals(response.status, 429);
  assertEquals(response.headers.get("Access-Control-Allow-Origin"), "*");
  assertEquals(
    response.headers.get("Access-Control-Expose-Headers"),
    EXPOSED_HEADERS.join(","),
  );
  assertEquals(response.headers.get("Access-Control-Allow-Credentials"), null);
  await response.body?.cancel();
});
