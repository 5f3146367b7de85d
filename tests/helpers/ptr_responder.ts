// A scripted DNS responder on loopback (dns-packet over a real UDP socket)
// for reverse-DNS behaviour dnsmasq will not show: answers after a delay,
// answers lost, a server that goes dead. `decide` says, for each query of an
// address (and how many times that address was asked so far, 1 first),
// whether to answer with a name, NXDOMAIN, SERVFAIL or nothing, and after how
// long, or once a promise settles (`held`: a test's gate).
// @ts-types="npm:@types/dns-packet@^5.6"
import packet from "dns-packet";
import { Buffer } from "node:buffer";

export type Reply =
  | { kind: "name"; name: string; delayMs?: number; held?: Promise<unknown> }
  | { kind: "nxdomain"; delayMs?: number }
  | { kind: "servfail"; delayMs?: number }
  | { kind: "none" };

export interface PtrResponder {
  /** "127.0.0.1:PORT", the form DNS_SERVERS takes. */
  address: string;
  port: number;
  /** Queries received for an address (resends included). */
  asked(ip: string): number;
  /** Distinct addresses asked about. */
  addressesAsked(): number;
  stop(): Promise<void>;
}

function addressOf(name: string): string {
  return name.replace(/\.in-addr\.arpa$/i, "").split(".").reverse().join(".");
}

export function startPtrResponder(
  decide: (ip: string, times: number) => Reply,
): PtrResponder {
  const socket = Deno.listenDatagram({
    transport: "udp",
    hostname: "127.0.0.1",
    port: 0,
  });
  const counts = new Map<string, number>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const served = (async () => {
    try {
      for await (const [data, from] of socket) {
        const query = packet.decode(Buffer.from(data));
        const question = query.questions![0];
        const ip = addressOf(question.name);
        const times = (counts.get(ip) ?? 0) + 1;
        counts.set(ip, times);
        const reply = decide(ip, times);
        if (reply.kind === "none") continue;
        const bytes = packet.encode({
          type: "response",
          id: query.id,
          flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE |
            ({ nxdomain: 3, servfail: 2, name: 0 })[reply.kind],
          questions: query.questions,
          answers: reply.kind === "name"
            ? [{ type: "PTR", name: question.name, ttl: 60, data: reply.name }]
            : [],
        });
        const send = () => socket.send(bytes, from).catch(() => {});
        if (reply.kind === "name" && reply.held) {
          reply.held.then(send);
          continue;
        }
        if (!reply.delayMs) {
          send();
          continue;
        }
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, reply.delayMs);
        timers.add(timer);
      }
    } catch { /* closed */ }
  })();
  const port = (socket.addr as Deno.NetAddr).port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    asked: (ip) => counts.get(ip) ?? 0,
    addressesAsked: () => counts.size,
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      socket.close();
      await served;
    },
  };
}
