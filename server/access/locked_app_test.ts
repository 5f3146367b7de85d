// ACCESS_PASSWORD, LOOKUP_API_KEYS and the cross-site guard through the real
// app in process (startTestApp): pages go to /signin, job routes answer 401 until
// the session signs in or the request carries the password (HTTP Basic);
// the lookup API wants a key (Bearer or ?key=) and limits each key on its
// own; a state-changing request from another site's page gets 403.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import {
  routes,
  startTestApp,
  withCookieJar,
} from "../../tests/helpers/test_app.ts";

const PASSWORD = "correct horse battery staple";
const KEYS = ["key-one-0123456789abcdef", "key-two-0123456789abcdef"];
const basic = (password: string) => `Basic ${btoa(`any-user:${password}`)}`;

Deno.test({
  name: "a locked server with lookup API keys",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const test = await startTestApp({
      ACCESS_PASSWORD: PASSWORD,
      LOOKUP_API_KEYS: KEYS.join(","),
      RATE_LIMIT_PER_MINUTE: "1", // no refill within the test, however slow
      RATE_LIMIT_BURST: "3",
    });
    // Each call a new visitor, as a client without cookies.
    const fetch = (path: string, init?: RequestInit) =>
      test.hono.request(path, init);
    const get = async (path: string, headers: HeadersInit = {}) => {
      const response = await fetch(path, { headers });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    };
    try {
      await t.step(
        "pages redirect to /signin, job routes answer 401",
        async () => {
          for (const page of ["/", "/history", "/results/1", "/api"]) {
            const answer = await get(page);
            assertEquals(answer.status, 303, page);
            assertEquals(
              answer.headers.get("location"),
              `/signin?next=${encodeURIComponent(page)}`,
            );
          }
          for (const path of ["/api/jobs", "/api/jobs/1", "/api/config"]) {
            const answer = await get(path);
            assertEquals(answer.status, 401, path);
            match(answer.headers.get("www-authenticate") ?? "", /^Basic/);
            match(JSON.parse(answer.text).message, /locked/);
          }
          // The web app's own fetch gets no Basic challenge (the browser would
          // hold it behind a password dialog); the app reloads into /signin.
          const fromPage = await get("/api/jobs", { "sec-fetch-mode": "cors" });
          assertEquals(fromPage.status, 401);
          assertEquals(fromPage.headers.get("www-authenticate"), null);
          const signIn = await get("/signin?next=/history");
          assertEquals(signIn.status, 200);
          match(signIn.text, /access password/);
        },
      );

      await t.step(
        "HTTP Basic opens job routes; a wrong password does not",
        async () => {
          assertEquals(
            (await get("/api/jobs", {
              authorization: basic(PASSWORD),
            })).status,
            200,
          );
          assertEquals(
            (await get("/api/jobs", {
              authorization: basic("wrong"),
            })).status,
            401,
          );
        },
      );

      await t.step(
        "signing in unlocks pages and job routes for the session",
        async () => {
          const jar = withCookieJar(test.hono);
          const signIn = (password: string) =>
            jar.request("/signin", {
              method: "POST",
              body: new URLSearchParams({ password, next: "/history" }),
            });
          const wrong = await signIn("nope");
          await wrong.body?.cancel();
          assertEquals(wrong.status, 401);
          const stillLocked = await jar.request("/api/jobs");
          await stillLocked.body?.cancel();
          assertEquals(stillLocked.status, 401);
          const right = await signIn(PASSWORD);
          await right.body?.cancel();
          assertEquals(right.status, 303);
          assertEquals(right.headers.get("location"), "/history");
          const jobs = await jar.request("/api/jobs");
          assertEquals([jobs.status, await jobs.json()], [200, []]);
          const page = await jar.request("/history");
          await page.body?.cancel();
          assertEquals(page.status, 200);
        },
      );

      await t.step("the lookup API needs a key: Bearer or ?key=", async () => {
        const lookup = "/api/lookup?ip=8.8.8.8";
        const none = await get(lookup);
        assertEquals(none.status, 401);
        match(JSON.parse(none.text).message, /API key/);
        assertEquals(
          (await get(`${lookup}&key=not-a-key-0123456789`)).status,
          401,
        );
        assertEquals((await get("/api/openapi.json")).status, 401);
        const bigQuery = await fetch("/api/bigquery", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ calls: [["8.8.8.8"]] }),
        });
        assertEquals(bigQuery.status, 401);
        ok("errorMessage" in await bigQuery.json(), "BigQuery's error shape");
        const bearer = await get(lookup, {
          authorization: `Bearer ${KEYS[0]}`,
        });
        assertEquals(bearer.status, 200);
        assertEquals(JSON.parse(bearer.text).ip, "8.8.8.8");
        assertEquals((await get(`${lookup}&key=${KEYS[1]}`)).status, 200);
        assertEquals(
          (await get("/api/openapi.json", {
            authorization: `Bearer ${KEYS[1]}`,
          }))
            .status,
          200,
        );
        ok(!none.headers.get("set-cookie"), "no session on the lookup API");
      });

      await t.step("rate limits count per key, not per address", async () => {
        // Burst 3: key one has spent one above; two more, then refused.
        const withKey = (key: string) =>
          get("/api/lookup?ip=1.1.1.1", { authorization: `Bearer ${key}` });
        const statuses = [];
        for (let i = 0; i < 3; i++) {
          statuses.push((await withKey(KEYS[0])).status);
        }
        assertEquals(statuses, [200, 200, 429]);
        // Key two (one spent above) still has its own bucket.
        assertEquals((await withKey(KEYS[1])).status, 200);
      });

      await t.step("a cross-site POST is refused with 403", async () => {
        const headers = {
          authorization: basic(PASSWORD),
          "content-type": "application/json",
        };
        const body = JSON.stringify({ fileName: "x.csv", ipColumnName: "ip" });
        for (
          const from of [
            { origin: "https://evil.example" },
            { "sec-fetch-site": "cross-site" },
          ] as Record<string, string>[]
        ) {
          const response = await fetch("/api/enrich", {
            method: "POST",
            headers: { ...headers, ...from },
            body,
          });
          assertEquals(response.status, 403);
          match((await response.json()).message, /Cross-site request refused/);
        }
        // Every state-changing route of the real app, not only enrich.
        for (
          const [method, path] of routes(
            "POST /api/upload",
            "POST /api/jobs/1/cancel",
            "POST /api/jobs/1/restart",
            "DELETE /api/jobs/completed",
            "POST /signin",
          )
        ) {
          const refused = await fetch(path, {
            method,
            headers: {
              authorization: basic(PASSWORD),
              origin: "https://evil.example",
            },
          });
          await refused.body?.cancel();
          assertEquals(refused.status, 403, `${method} ${path}`);
        }
        // The app's own origin passes the guard (and reaches validation).
        const own = await fetch("/api/enrich", {
          method: "POST",
          headers: { ...headers, origin: "http://localhost" },
          body,
        });
        await own.body?.cancel();
        assertEquals(own.status, 400);
      });
    } finally {
      await test.close();
    }
  },
});
