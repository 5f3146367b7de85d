// GET /api/lookup in process (the real app and engine): its caching headers.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { startTestApp } from "../../tests/helpers/test_app.ts";

const KEY = "team-a-0123456789abcdef";

Deno.test("an open lookup API answers cacheable by anyone", async () => {
  const test = await startTestApp();
  try {
    const response = await test.hono.request("/api/lookup?ip=8.8.8.8");
    await response.body?.cancel();
    assertEquals(response.status, 200);
    assertEquals(
      response.headers.get("cache-control"),
      "public, max-age=86400",
    );
  } finally {
    await test.close();
  }
});

Deno.test("with API keys a lookup is cacheable only by its caller", async () => {
  const test = await startTestApp({ LOOKUP_API_KEYS: KEY });
  try {
    for (
      const init of [
        { headers: { authorization: `Bearer ${KEY}` } },
        {},
      ]
    ) {
      const query = "headers" in init ? "" : `&key=${KEY}`;
      const response = await test.hono.request(
        `/api/lookup?ip=8.8.8.8${query}`,
        init,
      );
      await response.body?.cancel();
      assertEquals(response.status, 200);
      // A shared cache must not hand a keyed answer to a caller without one.
      assertEquals(
        response.headers.get("cache-control"),
        "private, max-age=86400",
      );
      assertEquals(response.headers.get("vary"), "Authorization");
    }
  } finally {
    await test.close();
  }
});
