import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Hono } from "hono";
import { clientAddress, clientKey } from "./client_address.ts";

Deno.test("clientKey: IPv4 as is, IPv6 by /64, mapped IPv4 as IPv4", () => {
  assertEquals(clientKey("203.0.113.9"), "203.0.113.9");
  assertEquals(clientKey("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
  assertEquals(clientKey("2001:db8:1:2::ffff"), "2001:db8:1:2::/64");
  assertEquals(clientKey("::ffff:198.51.100.7"), "198.51.100.7");
  assertEquals(clientKey("unknown"), "unknown");
});

async function addressOf(
  trustProxy: number,
  headers: Record<string, string>,
): Promise<string> {
  const app = new Hono();
  app.get("/", (c) => c.text(clientAddress(c, trustProxy)));
  const info = {
    remoteAddr: { transport: "tcp", hostname: "192.0.2.1", port: 40000 },
  };
  return await (await app.request("/", { headers }, info)).text();
}

Deno.test("clientAddress: the connecting address unless proxies are trusted", async () => {
  const forwarded = { "x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.0.0.2" };
  assertEquals(await addressOf(0, forwarded), "192.0.2.1");
  assertEquals(await addressOf(0, {}), "192.0.2.1");
  // One trusted proxy: the address it saw is the last entry.
  assertEquals(await addressOf(1, forwarded), "10.0.0.2");
  assertEquals(await addressOf(2, forwarded), "198.51.100.7");
  assertEquals(await addressOf(9, forwarded), "6.6.6.6");
  assertEquals(await addressOf(1, {}), "192.0.2.1");
});

Deno.test("clientAddress: no connection info (in-process requests)", async () => {
  const app = new Hono();
  app.get("/", (c) => c.text(clientAddress(c, 0)));
  assertEquals(await (await app.request("/")).text(), "unknown");
});
