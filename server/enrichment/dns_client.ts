// A stub DNS client for PTR queries over UDP: one socket per name server,
// shared by every query in flight, answers matched to queries by id,
// question and source address. Deno.resolveDns builds a resolver and a
// socket for every call, which bounded reverse DNS at a few thousand
// queries a second; here a query is one datagram each way.
// @ts-types="npm:@types/dns-packet@^5.6"
import packet from "dns-packet";
import { Buffer } from "node:buffer";
import ipaddr from "ipaddr.js";

export interface NameServer {
  ipAddr: string;
  port: number;
}

/** What a PTR query came to. TTLs are in seconds, as the answer gave them. */
export type PtrAnswer =
  /** NOERROR with a PTR record: its name, without the final dot. */
  | { kind: "found"; name: string; ttl: number }
  /** NXDOMAIN, or NOERROR with no PTR record; ttl null: no SOA to say. */
  | { kind: "notFound"; ttl: number | null }
  | { kind: "timeout" }
  /** SERVFAIL, REFUSED, a malformed answer, a failed send. */
  | { kind: "failed" }
  /** The answer did not fit in a datagram (TC): ask again over TCP. */
  | { kind: "truncated" };

interface Pending {
  name: string;
  timer: ReturnType<typeof setTimeout>;
  resolve(answer: PtrAnswer): void;
}

const RCODE_NOERROR = 0;
const RCODE_NXDOMAIN = 3;
const MAX_DATAGRAM = 65535;

/** "8.8.8.8" and "::ffff:8.8.8.8" alike, for comparing source addresses. */
function normalised(ip: string): string {
  try {
    const addr = ipaddr.process(ip.replace(/%.*$/, ""));
    return addr.toNormalizedString();
  } catch {
    return ip;
  }
}

/** Random query ids, drawn from the system's generator in blocks. */
class Ids {
  #pool = new Uint16Array(256);
  #at = this.#pool.length;

  next(): number {
    if (this.#at === this.#pool.length) {
      crypto.getRandomValues(this.#pool);
      this.#at = 0;
    }
    return this.#pool[this.#at++];
  }
}

/**
 * Queries to one name server over one UDP socket. The socket opens with
 * the first query and closes when no query is left in flight, so an idle
 * client holds no resource; a late answer to a closed socket is dropped.
 */
export class UdpDnsClient {
  readonly server: NameServer;
  #source: string;
  #socket: Deno.DatagramConn | null = null;
  #pending = new Map<number, Pending>();
  #ids = new Ids();
  #target: Deno.NetAddr;

  constructor(server: NameServer) {
    this.server = server;
    this.#source = normalised(server.ipAddr);
    this.#target = {
      transport: "udp",
      hostname: server.ipAddr,
      port: server.port,
    };
  }

  /** Queries in flight now. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** A PTR query for `name` (e.g. "4.4.8.8.in-addr.arpa"). */
  query(name: string, timeoutMs: number): Promise<PtrAnswer> {
    if (this.#pending.size >= 65536) {
      return Promise.resolve({ kind: "failed" });
    }
    let socket: Deno.DatagramConn;
    try {
      socket = this.#open();
    } catch {
      return Promise.resolve({ kind: "failed" });
    }
    let id = this.#ids.next();
    while (this.#pending.has(id)) id = this.#ids.next();
    const message = packet.encode({
      type: "query",
      id,
      flags: packet.RECURSION_DESIRED,
      questions: [{ type: "PTR", class: "IN", name }],
    });
    const { promise, resolve } = Promise.withResolvers<PtrAnswer>();
    const send = () =>
      socket.send(message, this.#target).catch(() =>
        this.#settle(id, { kind: "failed" })
      );
    // A datagram lost in a burst (a socket buffer overflowing) is sent
    // again once, halfway to the timeout, as stub resolvers do.
    const half = Math.floor(timeoutMs / 2);
    const timer = setTimeout(() => {
      const query = this.#pending.get(id);
      if (!query) return;
      query.timer = setTimeout(
        () => this.#settle(id, { kind: "timeout" }),
        timeoutMs - half,
      );
      if (this.#socket === socket) send();
    }, half);
    this.#pending.set(id, { name: name.toLowerCase(), timer, resolve });
    send();
    return promise;
  }

  /** Ends every query in flight as timed out and closes the socket. */
  close(): void {
    for (const id of [...this.#pending.keys()]) {
      this.#settle(id, { kind: "timeout" });
    }
    this.#closeSocket();
  }

  #open(): Deno.DatagramConn {
    if (this.#socket) return this.#socket;
    const v6 = this.server.ipAddr.includes(":");
    const socket = Deno.listenDatagram({
      transport: "udp",
      hostname: v6 ? "::" : "0.0.0.0",
      port: 0,
    });
    this.#socket = socket;
    this.#receive(socket);
    return socket;
  }

  #closeSocket(): void {
    const socket = this.#socket;
    this.#socket = null;
    try {
      socket?.close();
    } catch { /* closed already */ }
  }

  async #receive(socket: Deno.DatagramConn): Promise<void> {
    const buffer = new Uint8Array(MAX_DATAGRAM);
    for (;;) {
      let data: Uint8Array;
      let from: Deno.Addr;
      try {
        [data, from] = await socket.receive(buffer);
      } catch {
        // Closed (idle, or shut down); a socket error fails what is left.
        if (this.#socket === socket) {
          this.#socket = null;
          for (const id of [...this.#pending.keys()]) {
            this.#settle(id, { kind: "failed" });
          }
        }
        return;
      }
      if (this.#socket !== socket) return;
      const addr = from as Deno.NetAddr;
      if (addr.port !== this.server.port || !this.#fromServer(addr.hostname)) {
        continue;
      }
      this.#answer(data);
    }
  }

  #fromServer(hostname: string): boolean {
    return hostname === this.server.ipAddr ||
      normalised(hostname) === this.#source;
  }

  #answer(data: Uint8Array): void {
    if (data.length < 12) return;
    const id = (data[0] << 8) | data[1];
    const query = this.#pending.get(id);
    // Not a response, or to no query of ours (a late one, or spoofed).
    if (!query || (data[2] & 0x80) === 0) return;
    let message: packet.Packet;
    try {
      message = packet.decode(
        Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      );
    } catch {
      this.#settle(id, { kind: "failed" });
      return;
    }
    const question = message.questions?.[0];
    if (
      !question || question.type !== "PTR" ||
      question.name.toLowerCase() !== query.name
    ) {
      return; // the id of one of ours, another question: not the answer
    }
    this.#settle(id, interpret(message, data));
  }

  #settle(id: number, answer: PtrAnswer): void {
    const query = this.#pending.get(id);
    if (!query) return;
    this.#pending.delete(id);
    clearTimeout(query.timer);
    query.resolve(answer);
    if (this.#pending.size === 0) this.#closeSocket();
  }
}

/** The answer of a response to a PTR question. */
export function interpret(
  message: packet.Packet,
  raw: Uint8Array,
): PtrAnswer {
  if (raw[2] & 0x02) return { kind: "truncated" };
  const rcode = raw[3] & 0x0f;
  if (rcode === RCODE_NOERROR) {
    let ttl = Infinity;
    for (const record of message.answers ?? []) {
      // A CNAME on the way (RFC 2317 delegation) bounds the TTL too.
      if (record.type === "OPT") continue;
      ttl = Math.min(ttl, record.ttl ?? 0);
      if (record.type === "PTR") {
        const name = String(record.data);
        if (name === "" || name === ".") break;
        return {
          kind: "found",
          name: name.replace(/\.$/, ""),
          ttl: Number.isFinite(ttl) ? ttl : 0,
        };
      }
    }
    return { kind: "notFound", ttl: negativeTtl(message) };
  }
  if (rcode === RCODE_NXDOMAIN) {
    return { kind: "notFound", ttl: negativeTtl(message) };
  }
  return { kind: "failed" };
}

/** RFC 2308: the SOA's TTL, bounded by its minimum field; null: no SOA. */
function negativeTtl(message: packet.Packet): number | null {
  for (const record of message.authorities ?? []) {
    if (record.type === "SOA") {
      const minimum = (record.data as { minimum?: number }).minimum ?? 0;
      return Math.min(record.ttl ?? 0, minimum);
    }
  }
  return null;
}

/** The name servers of /etc/resolv.conf (or `text`), in their order. */
export function systemNameServers(
  text: string | null = readResolvConf(),
): NameServer[] {
  if (!text) return [];
  const servers: NameServer[] = [];
  for (const line of text.split("\n")) {
    const match = line.match(/^\s*nameserver\s+(\S+)/);
    if (!match) continue;
    const address = match[1];
    // A scoped link-local address needs its interface: left to the system.
    if (address.includes("%") || !ipaddr.isValid(address)) continue;
    servers.push({ ipAddr: address, port: 53 });
  }
  return servers;
}

function readResolvConf(): string | null {
  try {
    return Deno.readTextFileSync("/etc/resolv.conf");
  } catch {
    return null;
  }
}
