import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Buffer } from "node:buffer";
// @ts-types="npm:@types/dns-packet@^5.6"
import packet from "dns-packet";
import {
  SILENT_ZONE_RECORDS,
  startPtrServer,
} from "../../tests/helpers/dnsmasq.ts";
import { startPtrResponder } from "../../tests/helpers/ptr_responder.ts";
import {
  type DnsSettings,
  parseServer,
  registrableDomain,
  ReverseDns,
  reverseName,
  unescapeName,
} from "./reverse_dns.ts";

/**
 * A resolver of `settings` (a 100 ms timeout) asking dnsmasq, which has
 * the usual test records and never answers for 9.9.9.0/24; both end after
 * `check`.
 */
function testWithSilentZone(
  name: string,
  settings: Omit<DnsSettings, "servers" | "timeoutMs">,
  check: (resolver: ReverseDns) => Promise<void>,
) {
  Deno.test({
    name,
    sanitizeResources: true,
    sanitizeOps: true,
    async fn() {
      const dns = await startPtrServer(SILENT_ZONE_RECORDS);
      const resolver = new ReverseDns({
        servers: [dns.address],
        timeoutMs: 100,
        ...settings,
      });
      try {
        await check(resolver);
      } finally {
        resolver.close();
        await dns.stop();
      }
    },
  });
}

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
  assertEquals(dns.stats.timedOut >= 5, true, JSON.stringify(dns.stats));
  assertEquals(dns.stats.skipped > 100, true, JSON.stringify(dns.stats));
  assertEquals(dns.stats.queries + dns.stats.skipped, 200);
});

Deno.test("a resolver that answers SERVFAIL is not rested", async () => {
  const responder = startPtrResponder(() => ({ kind: "servfail" }));
  const dns = new ReverseDns({
    servers: [responder.address],
    timeoutMs: 500,
    concurrency: 5,
  });
  try {
    const names = await Promise.all(
      Array.from({ length: 50 }, (_, i) => dns.lookup(`8.8.${i}.1`)),
    );
    assertEquals(names.every((name) => name === null), true);
    assertEquals(dns.stats.failed, 50, JSON.stringify(dns.stats));
    assertEquals(dns.stats.skipped, 0, JSON.stringify(dns.stats));
  } finally {
    dns.close();
    await responder.stop();
  }
});

testWithSilentZone(
  "answers are cached for their TTL; timeouts are not",
  { concurrency: 4 },
  async (resolver) => {
    // dnsmasq's own records have TTL 0: asked each time.
    assertEquals(await resolver.lookup("8.8.8.8"), "dns.google");
    assertEquals(await resolver.lookup("8.8.8.8"), "dns.google");
    assertEquals(resolver.stats.queries, 2);
    // NXDOMAIN without an SOA: kept for a minute.
    assertEquals(await resolver.lookup("1.1.1.1"), null);
    assertEquals(await resolver.lookup("1.1.1.1"), null);
    assertEquals(resolver.stats.queries, 3);
    assertEquals(resolver.stats.cached, 1);
    // A timeout is asked again.
    assertEquals(await resolver.lookup("9.9.9.9"), null);
    assertEquals(await resolver.lookup("9.9.9.9"), null);
    assertEquals(resolver.stats.timedOut, 2);
    // Lookups of one address at once share one query.
    const before = resolver.stats.queries;
    const names = await Promise.all(
      Array.from({ length: 10 }, () => resolver.lookup("8.8.8.8")),
    );
    assertEquals(names, Array(10).fill("dns.google"));
    assertEquals(resolver.stats.queries - before, 1);
  },
);

Deno.test("names are lowered and kept up to their TTL", async () => {
  const socket = Deno.listenDatagram({
    transport: "udp",
    hostname: "127.0.0.1",
    port: 0,
  });
  let asked = 0;
  const served = (async () => {
    try {
      for await (const [data, from] of socket) {
        asked++;
        const query = packet.decode(Buffer.from(data));
        await socket.send(
          packet.encode({
            type: "response",
            id: query.id,
            flags: packet.RECURSION_DESIRED,
            questions: query.questions,
            answers: [{
              type: "PTR",
              name: query.questions![0].name,
              ttl: 86400,
              data: "Mail.Example.COM",
            }],
          }),
          from,
        );
      }
    } catch { /* closed */ }
  })();
  const resolver = new ReverseDns({
    servers: [`127.0.0.1:${(socket.addr as Deno.NetAddr).port}`],
    timeoutMs: 1000,
    concurrency: 4,
  });
  try {
    assertEquals(await resolver.lookup("192.0.2.1"), "mail.example.com");
    assertEquals(await resolver.lookup("192.0.2.1"), "mail.example.com");
    assertEquals(asked, 1);
    assertEquals(resolver.stats, {
      queries: 1,
      answered: 1,
      notFound: 0,
      timedOut: 0,
      failed: 0,
      skipped: 0,
      cached: 1,
    });
  } finally {
    resolver.close();
    socket.close();
    await served;
  }
});

testWithSilentZone(
  "a silent zone does not rest a server that answers other names",
  { concurrency: 8, cacheEntries: 0 },
  async (resolver) => {
    // Rounds of 30 names that never answer beside 30 that do: each round
    // ends in 30 timeouts in a row, but the server answered queries sent
    // after them, so it is not rested.
    for (let round = 0; round < 4; round++) {
      const ips = Array.from(
        { length: 60 },
        (_, i) =>
          i % 2 ? `9.9.9.${round * 30 + (i >> 1)}` : `81.2.${round}.${i}`,
      );
      await Promise.all(ips.map((ip) => resolver.lookup(ip)));
    }
    assertEquals(resolver.stats.skipped, 0, JSON.stringify(resolver.stats));
    assertEquals(resolver.stats.timedOut, 120);
  },
);

Deno.test("with no DNS_SERVERS the system's name servers are asked", () => {
  const resolver = new ReverseDns(
    { servers: [], timeoutMs: 100, concurrency: 1 },
    () => [{ ipAddr: "192.0.2.53", port: 53 }],
  );
  assertEquals(resolver.servers, [{ ipAddr: "192.0.2.53", port: 53 }]);
  const configured = new ReverseDns({
    servers: ["127.0.0.1:5353"],
    timeoutMs: 100,
    concurrency: 1,
  }, () => [{ ipAddr: "192.0.2.53", port: 53 }]);
  assertEquals(configured.servers, [{ ipAddr: "127.0.0.1", port: 5353 }]);
});
