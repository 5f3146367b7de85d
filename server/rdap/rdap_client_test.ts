// The RDAP client against the loopback server: redirects, 429 Retry-After,
// 5xx back-off, the shared rate limit, and a server that never answers.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  type RdapServer,
  type RdapServerOptions,
  startRdapServer,
} from "../../tests/helpers/rdap_server.ts";
import { RateLimiter } from "./rate_limiter.ts";
import {
  RdapClient,
  type RdapClientOptions,
  retryAfterMs,
} from "./rdap_client.ts";

/** A client of `baseUrl` with a generous rate limit. */
const clientOf = (baseUrl: string, more: Partial<RdapClientOptions> = {}) =>
  new RdapClient({ baseUrl, limiter: new RateLimiter(50), ...more });

/** `check` against a fresh loopback RDAP server, closed after. */
async function withServer(
  check: (server: RdapServer) => Promise<void>,
  options: RdapServerOptions = {},
): Promise<void> {
  const server = startRdapServer(options);
  try {
    await check(server);
  } finally {
    await server.close();
  }
}

Deno.test("the bootstrap front's 302 is followed to the registry", async () => {
  await withServer(async (server) => {
    const client = clientOf(server.url);
    const answer = await client.query("12.34.56.7");
    assertEquals(answer.kind, "found");
    if (answer.kind === "found") {
      assertEquals(answer.registration.org, "ACME CORP");
    }
    assertEquals(
      server.requests.map((r) => [r.route, r.status]),
      [["front", 302], ["registry", 200]],
    );
    const v6 = await client.query("2001:db8::1");
    assertEquals(
      v6.kind === "found" ? [v6.registration.org, v6.registration.network] : v6,
      ["Joe User", "2001:db8::/48"],
    );
    assertEquals(await client.query("198.51.100.1"), { kind: "notFound" });
  });
});

Deno.test("a 429's Retry-After is waited out, then the answer comes", async () => {
  await withServer(async (server) => {
    const client = clientOf(server.registryUrl);
    const answer = await client.query("60.1.0.1");
    assertEquals(answer.kind, "found");
    const [first, second] = server.requests;
    assertEquals([first.status, second.status], [429, 200]);
    // Retry-After: 1 second (a little slack for timer granularity).
    ok(second.at - first.at >= 950, `retried after ${second.at - first.at}ms`);
  }, { tooManyOnce: { "60.1.0.1": "1" } });
});

Deno.test("a 429 holds every request, not only the one refused", async () => {
  await withServer(async (server) => {
    const client = clientOf(server.registryUrl);
    const refused = client.query("60.4.0.1");
    await new Promise((r) => setTimeout(r, 200));
    const other = client.query("60.5.0.1");
    assertEquals([(await refused).kind, (await other).kind], [
      "found",
      "found",
    ]);
    const first = server.requests[0];
    const later = server.requests.find((r) => r.address === "60.5.0.1")!;
    ok(later.at - first.at >= 950, `asked after ${later.at - first.at}ms`);
  }, { tooManyOnce: { "60.4.0.1": "1" } });
});

Deno.test("an answer too large or not JSON fails with a reason", async () => {
  await withServer(async (server) => {
    const limiter = new RateLimiter(50);
    const huge = new RdapClient({ baseUrl: `${server.url}/huge`, limiter });
    assertEquals(await huge.query("60.6.0.1"), {
      kind: "failed",
      reason: "the answer is too large",
    });
    const garbage = new RdapClient({
      baseUrl: `${server.url}/garbage`,
      limiter,
    });
    assertEquals(await garbage.query("60.6.0.1"), {
      kind: "failed",
      reason: "the answer is not JSON",
    });
  });
});

Deno.test("a 503 is retried after a pause; a refused connection fails", async () => {
  const server = startRdapServer();
  try {
    const client = clientOf(server.flakyUrl, { backoffMs: 200 });
    assertEquals((await client.query("60.2.0.1")).kind, "found");
    const [first, second] = server.requests;
    assertEquals([first.status, second.status], [503, 200]);
    ok(second.at - first.at >= 190, `retried after ${second.at - first.at}ms`);
  } finally {
    await server.close();
  }
  // The server is gone: the port refuses.
  const gone = clientOf(server.url, { backoffMs: 10, retries: 1 });
  const answer = await gone.query("60.2.0.1");
  assertEquals(answer.kind, "failed");
  ok(
    answer.kind === "failed" &&
      /cannot connect.*after 2 attempts/.test(answer.reason),
  );
});

Deno.test("a server that never answers times out per attempt", async () => {
  await withServer(async (server) => {
    const client = clientOf(server.deadUrl, { timeoutMs: 300 });
    const started = performance.now();
    assertEquals(await client.query("60.3.0.1"), { kind: "timeout" });
    const took = performance.now() - started;
    ok(took >= 290 && took < 2000, `took ${took}ms`);
  });
});

Deno.test("RDAP_RATE=5 holds: 30 blocks, never more than rate+burst a second", async () => {
  await withServer(async (server) => {
    const rate = 5;
    const limiter = new RateLimiter(rate);
    const client = new RdapClient({ baseUrl: server.registryUrl, limiter });
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) => client.query(`60.${n}.1.1`)),
    );
    const took = performance.now() - started;
    assertEquals(answers.filter((a) => a.kind === "found").length, 30);
    const times = server.requests.map((r) => r.at).sort((a, b) => a - b);
    // Any window of one second, starting at each request.
    const busiest = Math.max(
      ...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length),
    );
    ok(busiest <= rate + limiter.burst, `${busiest} requests in one second`);
    // The first `burst` go at once, the rest at the rate: about 5 seconds.
    ok(took >= ((30 - limiter.burst) / rate) * 1000 * 0.9, `took ${took}ms`);
  });
});

Deno.test("a redirect to another loopback server is never fetched", async () => {
  const other = startRdapServer();
  const configured = startRdapServer({ redirectTo: other.url });
  try {
    const client = clientOf(`${configured.url}/away`);
    assertEquals(await client.query("12.34.56.7"), {
      kind: "failed",
      reason: `a redirect to http://127.0.0.1:${
        new URL(other.url).port
      } was not followed: only https leaves RDAP_URL's origin`,
    });
    assertEquals(configured.count("away"), 1);
    // The same over https: refused for the address, before any connection.
    const port = new URL(other.url).port;
    const overHttps = startRdapServer({
      redirectTo: `https://127.0.0.1:${port}`,
    });
    try {
      const viaHttps = clientOf(`${overHttps.url}/away`);
      assertEquals(await viaHttps.query("12.34.56.7"), {
        kind: "failed",
        reason: `a redirect to https://127.0.0.1:${port} was not followed: ` +
          "127.0.0.1 is not a public address",
      });
    } finally {
      await overHttps.close();
    }
    assertEquals(other.requests, [], "the other server saw no request");
  } finally {
    await configured.close();
    await other.close();
  }
});

Deno.test("redirects stop after a few hops", async () => {
  await withServer(async (server) => {
    const client = clientOf(`${server.url}/loop`);
    assertEquals(await client.query("12.34.56.7"), {
      kind: "failed",
      reason: "more than 3 redirects",
    });
    assertEquals(server.count("loop"), 4);
  });
});

Deno.test("an answer whose network does not hold the address is not used", async () => {
  await withServer(async (server) => {
    const client = clientOf(`${server.url}/elsewhere`);
    const answer = await client.query("12.34.56.7");
    assertEquals(answer.kind, "failed");
    ok(
      answer.kind === "failed" &&
        /^the answer's network .+ does not hold 12\.34\.56\.7$/.test(
          answer.reason,
        ),
      JSON.stringify(answer),
    );
  });
});

Deno.test("Retry-After as seconds or as an HTTP date", () => {
  assertEquals(retryAfterMs("3"), 3000);
  assertEquals(retryAfterMs(null), null);
  assertEquals(retryAfterMs("soon"), null);
  const now = Date.parse("2026-01-01T00:00:00Z");
  assertEquals(retryAfterMs("Thu, 01 Jan 2026 00:00:02 GMT", now), 2000);
});
