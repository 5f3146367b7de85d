// A stub DNS client for PTR queries over UDP: one socket per name server,
// shared by every query in flight, answers matched to queries by id,
// question and source address. Deno.resolveDns builds a resolver and a
// socket for every call, which bounded reverse DNS at a few thousand
// queries a second; here a query is one datagram each way.
// @ts-types="npm:@types/dns-packet@^5.6"
import packet from "dns-packet";
import { Buffer } from "node:buffer";
import ipaddr from "ipaddr.js";
import { interpret, type PtrAnswer } from "./dns_answer.ts";

export { interpret, type PtrAnswer } from "./dns_answer.ts";

export interface NameServer {
  ipAddr: string;
  port: number;
}

/**
 * A query's two waits for an answer, ms. `onResend` when it is sent again;
 * `onAnswer` with the send that was answered (1: the first, perhaps late;
 * 2: the resend, so the first was lost) and its round trip from that send.
 */
export interface QueryTimeouts {
  firstMs: number;
  secondMs: number;
  onResend?: () => void;
  onAnswer?: (send: 1 | 2, rttMs: number) => void;
}

interface Pending {
  /** The first send's id, then the resend's, and when each was sent. */
  ids: number[];
  sentAt: number[];
  onAnswer?: (send: 1 | 2, rttMs: number) => void;
  name: string;
  socket: Deno.DatagramConn;
  timer: ReturnType<typeof setTimeout>;
  resolve(answer: PtrAnswer): void;
}

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
 * Queries to one name server over `sockets` UDP sockets, each query on one
 * of them in turn. The sockets open with the first query and close when no
 * query is left in flight, so an idle client holds no resource; a late
 * answer to a closed socket is dropped. Several sockets are several kernel
 * receive buffers: Deno cannot enlarge one (no SO_RCVBUF option), and a
 * burst of answers larger than one buffer would be dropped.
 */
export class UdpDnsClient {
  readonly server: NameServer;
  #source: string;
  #sockets: (Deno.DatagramConn | null)[];
  #nextSocket = 0;
  /** By id: a resent query is here under both of its ids. */
  #pending = new Map<number, Pending>();
  #queries = 0;
  #ids = new Ids();
  #target: Deno.NetAddr;

  constructor(server: NameServer, sockets = 1) {
    this.server = server;
    this.#source = normalised(server.ipAddr);
    this.#sockets = Array.from({ length: Math.max(1, sockets) }, () => null);
    this.#target = {
      transport: "udp",
      hostname: server.ipAddr,
      port: server.port,
    };
  }

  /** Queries in flight now. */
  get inFlight(): number {
    return this.#queries;
  }

  /** Sockets open now. */
  get openSockets(): number {
    return this.#sockets.filter((socket) => socket !== null).length;
  }

  /**
   * A PTR query for `name` (e.g. "4.4.8.8.in-addr.arpa"): sent, then sent
   * again with the same id after `firstMs` without an answer (a datagram
   * lost either way), then given up `secondMs` later. An answer to either
   * send is taken.
   */
  query(name: string, timeouts: QueryTimeouts): Promise<PtrAnswer> {
    const { firstMs, secondMs, onResend, onAnswer } = timeouts;
    if (this.#pending.size >= 65000) {
      return Promise.resolve({ kind: "failed" });
    }
    const slot = this.#nextSocket++ % this.#sockets.length;
    let socket: Deno.DatagramConn;
    try {
      socket = this.#open(slot);
    } catch {
      return Promise.resolve({ kind: "failed" });
    }
    const { promise, resolve } = Promise.withResolvers<PtrAnswer>();
    const send = (id: number) =>
      socket.send(this.#message(id, name), this.#target).catch(() =>
        this.#settle(id, { kind: "failed" })
      );
    const first = this.#freeId();
    // The resend has an id of its own, so that an answer tells which send
    // it answers: a late first answer is not a lost one.
    const timer = setTimeout(() => {
      const query = this.#pending.get(first);
      if (!query) return;
      query.timer = setTimeout(
        () => this.#settle(first, { kind: "timeout" }),
        secondMs,
      );
      if (this.#sockets[slot] === socket && this.#pending.size < 65000) {
        const again = this.#freeId();
        query.ids.push(again);
        query.sentAt.push(performance.now());
        this.#pending.set(again, query);
        send(again);
      }
      onResend?.();
    }, firstMs);
    this.#pending.set(first, {
      ids: [first],
      sentAt: [performance.now()],
      onAnswer,
      name: name.toLowerCase(),
      socket,
      timer,
      resolve,
    });
    this.#queries++;
    send(first);
    return promise;
  }

  #freeId(): number {
    let id = this.#ids.next();
    while (this.#pending.has(id)) id = this.#ids.next();
    return id;
  }

  #message(id: number, name: string): Uint8Array {
    return packet.encode({
      type: "query",
      id,
      flags: packet.RECURSION_DESIRED,
      questions: [{ type: "PTR", class: "IN", name }],
    });
  }

  /** Ends every query in flight as timed out and closes the sockets. */
  close(): void {
    for (const id of [...this.#pending.keys()]) {
      this.#settle(id, { kind: "timeout" });
    }
    this.#closeSockets();
  }

  #open(slot: number): Deno.DatagramConn {
    const open = this.#sockets[slot];
    if (open) return open;
    const v6 = this.server.ipAddr.includes(":");
    const socket = Deno.listenDatagram({
      transport: "udp",
      hostname: v6 ? "::" : "0.0.0.0",
      port: 0,
    });
    this.#sockets[slot] = socket;
    this.#receive(socket, slot);
    return socket;
  }

  #closeSockets(): void {
    for (let slot = 0; slot < this.#sockets.length; slot++) {
      const socket = this.#sockets[slot];
      this.#sockets[slot] = null;
      try {
        socket?.close();
      } catch { /* closed already */ }
    }
  }

  async #receive(socket: Deno.DatagramConn, slot: number): Promise<void> {
    const buffer = new Uint8Array(MAX_DATAGRAM);
    for (;;) {
      let data: Uint8Array;
      let from: Deno.Addr;
      try {
        [data, from] = await socket.receive(buffer);
      } catch {
        // Closed (idle, or shut down); a socket error fails its queries.
        if (this.#sockets[slot] === socket) {
          this.#sockets[slot] = null;
          for (const [id, query] of [...this.#pending]) {
            if (query.socket === socket) this.#settle(id, { kind: "failed" });
          }
        }
        return;
      }
      if (this.#sockets[slot] !== socket) return;
      const addr = from as Deno.NetAddr;
      if (addr.port !== this.server.port || !this.#fromServer(addr.hostname)) {
        continue;
      }
      this.#answer(data, socket);
    }
  }

  #fromServer(hostname: string): boolean {
    return hostname === this.server.ipAddr ||
      normalised(hostname) === this.#source;
  }

  #answer(data: Uint8Array, socket: Deno.DatagramConn): void {
    if (data.length < 12) return;
    const id = (data[0] << 8) | data[1];
    const query = this.#pending.get(id);
    // Not a response, or to no query of ours (a late one, another socket's
    // id, or spoofed).
    if (!query || query.socket !== socket || (data[2] & 0x80) === 0) return;
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
    for (const each of query.ids) this.#pending.delete(each);
    this.#queries--;
    clearTimeout(query.timer);
    if (answer.kind !== "timeout" && answer.kind !== "failed") {
      const send = id === query.ids[0] ? 1 : 2;
      query.onAnswer?.(send, performance.now() - query.sentAt[send - 1]);
    }
    query.resolve(answer);
    if (this.#pending.size === 0) this.#closeSockets();
  }
}

export { systemNameServers } from "./dns_names.ts";
