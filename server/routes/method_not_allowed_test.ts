// The wrong method on an /api path that exists: 405 and Allow, through the
// whole app in process; an /api path that does not exist stays a 404.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { startTestApp } from "../../tests/helpers/test_app.ts";

Deno.test({
  name: "a wrong method on an /api path answers 405 with Allow",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { hono, close } = await startTestApp();
    try {
      const answer = async (method: string, path: string) => {
        const response = await hono.request(path, { method });
        const body = await response.json();
        return [response.status, response.headers.get("allow"), body.message];
      };
      assertEquals(await answer("POST", "/api/lookup"), [
        405,
        "GET, HEAD",
        "/api/lookup does not take POST; it takes GET, HEAD",
      ]);
      assertEquals((await answer("GET", "/api/lookup/batch")).slice(0, 2), [
        405,
        "POST",
      ]);
      assertEquals((await answer("DELETE", "/api/jobs/7")).slice(0, 2), [
        405,
        "GET, HEAD",
      ]);
      assertEquals((await answer("GET", "/api/jobs/7/cancel")).slice(0, 2), [
        405,
        "POST",
      ]);
      assertEquals(await answer("GET", "/api/nothing"), [
        404,
        null,
        "Not found: GET /api/nothing",
      ]);
    } finally {
      await close();
    }
  },
});
