// A DNS responder on loopback that behaves like a resolver far away: each
// PTR query is answered after 16-88 ms (triangular, mode 76: mean 60 ms),
// 1% of answers are dropped, the silent addresses (dns_latency_zone.ts) are
// never answered, the NXDOMAIN ones get NXDOMAIN and the rest a name. The
// kernel here has no netem, so the delay and loss are made here instead.
//
//   deno run -A bench/dns_latency_server.ts [--loss=0.01]
//
// prints "port N" once listening, and "stats {...}" on SIGTERM/stdin EOF.
// @ts-types="npm:@types/dns-packet@^5.6"
import packet from "dns-packet";
import { Buffer } from "node:buffer";
import { parseArgs } from "node:util";
import { addressKind, hostFor } from "./dns_latency_zone.ts";

export const MIN_DELAY_MS = 16;
export const MAX_DELAY_MS = 88;
const MODE_DELAY_MS = 76;

/** Triangular(16, 88, 76): mean 60 ms, as the network namespace. */
function delayMs(): number {
  const u = Math.random();
  const [a, b, c] = [MIN_DELAY_MS, MAX_DELAY_MS, MODE_DELAY_MS];
  const split = (c - a) / (b - a);
  return u < split
    ? a + Math.sqrt(u * (b - a) * (c - a))
    : b - Math.sqrt((1 - u) * (b - a) * (b - c));
}

/** "4.3.2.1.in-addr.arpa" -> "1.2.3.4"; null for anything else. */
function addressOf(name: string): string | null {
  const match = name.toLowerCase().match(
    /^(\d+)\.(\d+)\.(\d+)\.(\d+)\.in-addr\.arpa$/,
  );
  return match ? `${match[4]}.${match[3]}.${match[2]}.${match[1]}` : null;
}

export interface ResponderStats {
  queries: number;
  answered: number;
  nxdomain: number;
  silent: number;
  dropped: number;
}

export function startLatencyResponder(loss = 0.01) {
  const socket = Deno.listenDatagram({
    transport: "udp",
    hostname: "127.0.0.1",
    port: 0,
  });
  const stats: ResponderStats = {
    queries: 0,
    answered: 0,
    nxdomain: 0,
    silent: 0,
    dropped: 0,
  };
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const served = (async () => {
    try {
      for await (const [data, from] of socket) {
        let query: packet.Packet;
        try {
          query = packet.decode(Buffer.from(data));
        } catch {
          continue;
        }
        stats.queries++;
        const question = query.questions?.[0];
        const ip = question ? addressOf(question.name) : null;
        const kind = ip ? addressKind(ip) : "nxdomain";
        if (kind === "silent") {
          stats.silent++;
          continue;
        }
        if (Math.random() < loss) {
          stats.dropped++;
          continue;
        }
        const named = kind === "named";
        const reply = packet.encode({
          type: "response",
          id: query.id,
          flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE |
            (named ? 0 : 3), // rcode 3: NXDOMAIN
          questions: query.questions,
          answers: named
            ? [{
              type: "PTR",
              name: question!.name,
              ttl: 3600,
              data: hostFor(ip!),
            }]
            : [],
        });
        if (named) stats.answered++;
        else stats.nxdomain++;
        const timer = setTimeout(() => {
          timers.delete(timer);
          socket.send(reply, from).catch(() => {});
        }, delayMs());
        timers.add(timer);
      }
    } catch { /* closed */ }
  })();
  return {
    port: (socket.addr as Deno.NetAddr).port,
    stats,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      socket.close();
      await served;
    },
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { loss: { type: "string", default: "0.01" } },
  });
  const responder = startLatencyResponder(Number(values.loss));
  console.log(`port ${responder.port}`);
  const stop = async () => {
    console.log(`stats ${JSON.stringify(responder.stats)}`);
    await responder.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", stop);
  // The parent closing our stdin ends us too.
  for await (const _ of Deno.stdin.readable) { /* until EOF */ }
  await stop();
}
