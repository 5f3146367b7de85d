// Over 300 lines: every case shares the one scripted server below.
// The UDP PTR client against dnsmasq on loopback, and against a scripted
// server for what dnsmasq will not do (wrong ids, spoofed sources, SOA,
// truncation, SERVFAIL, garbage).
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Buffer } from "node:buffer";
// @ts-types="npm:@types/dns-packet@^5.6"
import packet from "dns-packet";
import {
  reverseV4,
  SILENT_ZONE_RECORDS,
  startPtrServer,
} from "../../tests/helpers/dnsmasq.ts";
import { systemNameServers, UdpDnsClient } from "./dns_client.ts";

/** Timeouts adding up to `ms`: resent halfway. */
const total = (ms: number) => ({
  firstMs: Math.floor(ms / 2),
  secondMs: ms - Math.floor(ms / 2),
});

const LOOPBACK = "127.0.0.1";

/** A UDP server on loopback that answers each query with `reply`. */
function scriptedServer(
  reply: (query: packet.Packet) => Uint8Array[] | Promise<Uint8Array[]>,
) {
  const socket = Deno.listenDatagram({
    transport: "udp",
    hostname: LOOPBACK,
    port: 0,
  });
  // A second socket, to send answers from the wrong port.
  const spoofer = Deno.listenDatagram({
    transport: "udp",
    hostname: LOOPBACK,
    port: 0,
  });
  const served = (async () => {
    try {
      for await (const [data, from] of socket) {
        const query = packet.decode(Buffer.from(data));
        for (const bytes of await reply(query)) {
          await socket.send(bytes, from);
        }
      }
    } catch { /* closed */ }
  })();
  return {
    port: (socket.addr as Deno.NetAddr).port,
    spoof: (bytes: Uint8Array, to: Deno.Addr) => spoofer.send(bytes, to),
    async close() {
      socket.close();
      spoofer.close();
      await served;
    },
  };
}

function response(
  query: packet.Packet,
  fields: Partial<packet.Packet> & { rcode?: number; tc?: boolean },
): Uint8Array {
  const flags = packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE |
    (fields.tc ? packet.TRUNCATED_RESPONSE : 0) | (fields.rcode ?? 0);
  return packet.encode({
    type: "response",
    id: query.id,
    flags,
    questions: query.questions,
    answers: fields.answers ?? [],
    authorities: fields.authorities ?? [],
  });
}

function ptr(query: packet.Packet, data: string, ttl = 300): packet.Answer {
  return { type: "PTR", name: query.questions![0].name, ttl, data };
}

Deno.test({
  name: "PTR answers, NXDOMAIN and timeouts from dnsmasq",
  sanitizeResources: true,
  sanitizeOps: true,
  async fn() {
    const dns = await startPtrServer(SILENT_ZONE_RECORDS);
    const client = new UdpDnsClient({ ipAddr: LOOPBACK, port: dns.port });
    try {
      assertEquals(await client.query(reverseV4("8.8.8.8"), total(1000)), {
        kind: "found",
        name: "dns.google",
        ttl: 0, // dnsmasq's local records carry TTL 0
      });
      assertEquals(await client.query(reverseV4("1.1.1.1"), total(1000)), {
        kind: "notFound",
        ttl: null, // dnsmasq sends no SOA with it
      });
      assertEquals(await client.query(reverseV4("9.9.9.9"), total(150)), {
        kind: "timeout",
      });
      assertEquals(client.inFlight, 0);
      // Many at once on the one socket: each answer goes to its question.
      const ips = Array.from(
        { length: 300 },
        (_, i) => `81.2.${i >> 8}.${i & 255}`,
      );
      const answers = await Promise.all(
        ips.map((ip) => client.query(reverseV4(ip), total(5000))),
      );
      answers.forEach((answer, i) =>
        assertEquals(answer, {
          kind: "found",
          name: `${ips[i].replaceAll(".", "-")}.synth.test`,
          ttl: 0,
        })
      );
    } finally {
      client.close();
      await dns.stop();
    }
  },
});

Deno.test("answers with another id, question or source are not taken", async () => {
  let client: UdpDnsClient | null = null;
  const server = scriptedServer(async (query) => {
    const wrongId = response({ ...query, id: (query.id! + 1) & 0xffff }, {
      answers: [ptr(query, "wrong-id.example")],
    });
    const wrongQuestion = response({
      ...query,
      questions: [{ type: "PTR", name: "1.1.1.1.in-addr.arpa" }],
    }, { answers: [ptr(query, "wrong-question.example")] });
    // The right id and question, from another port of the same host.
    const spoofed = response(query, {
      answers: [ptr(query, "spoofed.example")],
    });
    await server.spoof(spoofed, await clientAddr());
    return [
      wrongId,
      wrongQuestion,
      new Uint8Array([1, 2, 3]),
      response(query, { answers: [ptr(query, "Right.Example", 120)] }),
    ];
  });
  // The client's socket address, as the server sees it.
  let seen: Deno.Addr | null = null;
  const clientAddr = () => Promise.resolve(seen!);
  const realSocket = Deno.listenDatagram;
  try {
    // Learn the client's port by wrapping the socket it opens.
    Deno.listenDatagram = ((
      options: Deno.UdpListenOptions & {
        transport: "udp";
      },
    ) => {
      const socket = realSocket(options);
      seen = {
        transport: "udp",
        hostname: LOOPBACK,
        port: (socket.addr as Deno.NetAddr).port,
      };
      return socket;
    }) as typeof Deno.listenDatagram;
    client = new UdpDnsClient({ ipAddr: LOOPBACK, port: server.port });
    assertEquals(await client.query("8.8.8.8.in-addr.arpa", total(2000)), {
      kind: "found",
      name: "Right.Example",
      ttl: 120,
    });
  } finally {
    Deno.listenDatagram = realSocket;
    client?.close();
    await server.close();
  }
});

Deno.test("SOA TTL, SERVFAIL, truncation and garbage", async () => {
  const server = scriptedServer((query) => {
    const name = query.questions![0].name;
    if (name.startsWith("1.")) {
      return [response(query, {
        rcode: 3, // NXDOMAIN
        authorities: [{
          type: "SOA",
          name: "in-addr.arpa",
          ttl: 900,
          data: {
            mname: "ns.example",
            rname: "hostmaster.example",
            serial: 1,
            refresh: 3600,
            retry: 600,
            expire: 86400,
            minimum: 300,
          },
        }],
      })];
    }
    if (name.startsWith("2.")) return [response(query, { rcode: 2 })];
    if (name.startsWith("3.")) return [response(query, { tc: true })];
    if (name.startsWith("4.")) {
      // A CNAME on the way bounds the TTL (RFC 2317 delegation).
      return [response(query, {
        answers: [
          { type: "CNAME", name, ttl: 60, data: "4.0-25.3.2.in-addr.arpa" },
          {
            type: "PTR",
            name: "4.0-25.3.2.in-addr.arpa",
            ttl: 600,
            data: "x.example",
          },
        ],
      })];
    }
    if (name.startsWith("5.")) return [response(query, {})]; // NODATA
    // Our id, then bytes that are no DNS message.
    const garbage = new Uint8Array(40).fill(0xff);
    garbage[0] = query.id! >> 8;
    garbage[1] = query.id! & 0xff;
    return [garbage];
  });
  const client = new UdpDnsClient({ ipAddr: LOOPBACK, port: server.port });
  try {
    const ask = (n: number) =>
      client.query(`${n}.2.3.4.in-addr.arpa`, total(2000));
    assertEquals(await ask(1), { kind: "notFound", ttl: 300 });
    assertEquals(await ask(2), { kind: "failed" });
    assertEquals(await ask(3), { kind: "truncated" });
    assertEquals(await ask(4), { kind: "found", name: "x.example", ttl: 60 });
    assertEquals(await ask(5), { kind: "notFound", ttl: null });
    assertEquals(await ask(6), { kind: "failed" });
  } finally {
    client.close();
    await server.close();
  }
});

Deno.test("a query left in flight ends when the client closes", async () => {
  const server = scriptedServer(() => []);
  const client = new UdpDnsClient({ ipAddr: LOOPBACK, port: server.port });
  const pending = client.query("8.8.8.8.in-addr.arpa", total(60_000));
  client.close();
  assertEquals(await pending, { kind: "timeout" });
  await server.close();
});

Deno.test("name servers of resolv.conf", () => {
  assertEquals(
    systemNameServers(
      "# comment\nsearch example.com\nnameserver 192.0.2.53\n" +
        "nameserver  2001:db8::53 \nnameserver fe80::1%eth0\n" +
        "nameserver not-an-address\noptions rotate\n",
    ),
    [{ ipAddr: "192.0.2.53", port: 53 }, { ipAddr: "2001:db8::53", port: 53 }],
  );
  assertEquals(systemNameServers(""), []);
  assertEquals(systemNameServers(null), []);
});

Deno.test("a query with no answer is sent again once, halfway", async () => {
  const seen = new Map<string, number[]>();
  const server = scriptedServer((query) => {
    const name = query.questions![0].name;
    const ids = [...seen.get(name) ?? [], query.id!];
    seen.set(name, ids);
    const times = ids.length;
    // The first copy is "lost".
    return times === 1 ? [] : [
      response(query, { answers: [ptr(query, "again.example", 60)] }),
    ];
  });
  const client = new UdpDnsClient({ ipAddr: LOOPBACK, port: server.port });
  try {
    assertEquals(await client.query("8.8.8.8.in-addr.arpa", total(400)), {
      kind: "found",
      name: "again.example",
      ttl: 60,
    });
    // Sent twice, the resend with an id of its own.
    const [ids] = [...seen.values()];
    assertEquals(ids.length, 2);
    assertEquals(ids[0] !== ids[1], true);
  } finally {
    client.close();
    await server.close();
  }
});

Deno.test("the resend after a short first wait recovers a lost answer", async () => {
  const seen = new Map<string, number>();
  const server = scriptedServer((query) => {
    const name = query.questions![0].name;
    const times = (seen.get(name) ?? 0) + 1;
    seen.set(name, times);
    return times === 1 ? [] : [
      response(query, { answers: [ptr(query, "second.example", 60)] }),
    ];
  });
  const client = new UdpDnsClient({ ipAddr: LOOPBACK, port: server.port }, 3);
  let resends = 0;
  const answeredBy: number[] = [];
  try {
    const answers = await Promise.all(
      ["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"].map((ip) =>
        client.query(reverseV4(ip), {
          firstMs: 50,
          secondMs: 5000,
          onResend: () => resends++,
          onAnswer: (send) => answeredBy.push(send),
        })
      ),
    );
    assertEquals(
      answers,
      Array(4).fill({ kind: "found", name: "second.example", ttl: 60 }),
    );
    assertEquals(resends, 4);
    assertEquals(answeredBy, [2, 2, 2, 2]); // the resends were answered
    assertEquals([...seen.values()], [2, 2, 2, 2]);
    assertEquals(client.openSockets, 0); // closed once idle
  } finally {
    client.close();
    await server.close();
  }
});

Deno.test("a late answer to the first send is told from a lost one", async () => {
  // Every answer comes 120 ms late, after the resend at 40 ms; the resend
  // itself is never answered.
  const asked = new Set<string>();
  const server = scriptedServer(async (query) => {
    const name = query.questions![0].name;
    if (asked.has(name)) return [];
    asked.add(name);
    await new Promise((resolve) => setTimeout(resolve, 120));
    return [response(query, { answers: [ptr(query, "late.example", 60)] })];
  });
  const client = new UdpDnsClient({ ipAddr: LOOPBACK, port: server.port });
  const answeredBy: number[] = [];
  try {
    const answer = await client.query(reverseV4("5.6.7.8"), {
      firstMs: 40,
      secondMs: 5000,
      onAnswer: (send) => answeredBy.push(send),
    });
    assertEquals(answer, { kind: "found", name: "late.example", ttl: 60 });
    assertEquals(answeredBy, [1]);
  } finally {
    client.close();
    await server.close();
  }
});
