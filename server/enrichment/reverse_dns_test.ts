import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  parseServer,
  registrableDomain,
  ReverseDns,
  reverseName,
  unescapeName,
} from "./reverse_dns.ts";

Deno.test("reverse names for IPv4 and IPv6", () => {
  assertEquals(reverseName("8.8.4.4"), "4.4.8.8.in-addr.arpa");
  assertEquals(
    reverseName("2001:db8::1"),
    "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa",
  );
});

Deno.test("DNS_SERVERS entries", () => {
  assertEquals(parseServer("127.0.0.1"), { ipAddr: "127.0.0.1", port: 53 });
  assertEquals(parseServer("127.0.0.1:5353"), {
    ipAddr: "127.0.0.1",
    port: 5353,
  });
  assertEquals(parseServer("[::1]:5353"), { ipAddr: "::1", port: 5353 });
  assertEquals(parseServer("::1"), { ipAddr: "::1", port: 53 });
});

Deno.test("registrable domain from the Public Suffix List", () => {
  assertEquals(registrableDomain("mail.shop.example.co.uk"), "example.co.uk");
  assertEquals(registrableDomain("dns.google"), "dns.google");
  assertEquals(registrableDomain(null), null);
  assertEquals(registrableDomain("localhost"), null);
});

Deno.test("presentation-format escapes are undone", () => {
  assertEquals(unescapeName("\\-cmd.example.com"), "-cmd.example.com");
  assertEquals(unescapeName("a\\032b.example"), "a b.example");
});

Deno.test("a resolver that never answers is rested after failures in a row", async () => {
  // Nothing listens on port 9: every query times out.
  const dns = new ReverseDns({
    servers: ["127.0.0.1:9"],
    timeoutMs: 50,
    concurrency: 5,
  });
  const names = await Promise.all(
    Array.from({ length: 200 }, (_, i) => dns.lookup(`8.8.${i}.1`)),
  );
  assertEquals(names.every((name) => name === null), true);
  assertEquals(dns.stats.timedOut >= 20, true, JSON.stringify(dns.stats));
  assertEquals(dns.stats.skipped > 100, true, JSON.stringify(dns.stats));
  assertEquals(dns.stats.queries + dns.stats.skipped, 200);
});
