// Reverse DNS (PTR) with a per-query timeout and a concurrency limit, so a
// resolver that never answers cannot stall a job: such a row has no hostname.
// Queries go over UDP (dns_client.ts) to DNS_SERVERS, or to the name
// servers of /etc/resolv.conf when it is empty; recent answers are cached.
import ipaddr from "ipaddr.js";
import { getDomain } from "tldts";
import {
  type NameServer,
  type PtrAnswer,
  systemNameServers,
  UdpDnsClient,
} from "./dns_client.ts";
import { TtlCache } from "./ttl_cache.ts";

export type { NameServer };

export interface DnsSettings {
  /** "host" or "host:port" ("[::1]:53" for IPv6); empty: the system's. */
  servers: string[];
  timeoutMs: number;
  concurrency: number;
  /** Addresses whose answers are cached (default 10,000; 0: no cache). */
  cacheEntries?: number;
}

export function parseServer(entry: string): NameServer {
  const bracketed = entry.match(/^\[([^\]]+)\](?::(\d+))?$/);
  if (bracketed) {
    return { ipAddr: bracketed[1], port: Number(bracketed[2] ?? 53) };
  }
  const parts = entry.split(":");
  if (parts.length === 2) return { ipAddr: parts[0], port: Number(parts[1]) };
  return { ipAddr: entry, port: 53 };
}

/** 8.8.4.4 -> 4.4.8.8.in-addr.arpa; IPv6 -> nibbles under ip6.arpa. */
export function reverseName(ip: string): string {
  const addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv4") {
    return `${addr.toByteArray().reverse().join(".")}.in-addr.arpa`;
  }
  const hex = addr.toByteArray()
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
  return `${[...hex].reverse().join(".")}.ip6.arpa`;
}

/** DNS presentation format to text: "\\-x.example" -> "-x.example", "\\032" -> " ". */
export function unescapeName(name: string): string {
  return name.replace(
    /\\(\d{3}|.)/g,
    (_, code: string) =>
      code.length === 3 ? String.fromCharCode(Number(code)) : code,
  );
}

/** Registrable domain of a host name: "mail.example.co.uk" -> "example.co.uk". */
export function registrableDomain(hostname: string | null): string | null {
  if (!hostname) return null;
  return getDomain(hostname, { allowPrivateDomains: false }) ?? null;
}

export interface DnsStats {
  queries: number;
  answered: number;
  notFound: number;
  timedOut: number;
  failed: number;
  /** Not asked: every server was resting after failing (circuit breaker). */
  skipped: number;
  /** Answered from the cache of recent answers, not asked. */
  cached: number;
}

// A server that fails this many queries in a row (no answer at all, not
// NXDOMAIN) is rested: its queries are skipped at once until the rest is
// over, then it is tried again. A dead resolver thus costs a job a few
// timeouts, not one timeout per remaining row. A query that times out
// although the server answered another one after it was sent does not
// count: the server is alive, only that zone is silent.
const BREAK_AFTER = 20;
const REST_MS = 5000;

// After a while without an answer a query stops counting against
// DNS_CONCURRENCY; at most STALLED_FACTOR times DNS_CONCURRENCY queries are
// in flight in all. The while is STALLED_RTTS times the smoothed round trip
// of answered queries, within [STALLED_MIN_MS, STALLED_MS] (and at most half
// the timeout): a nearby resolver that answers in a millisecond should not
// have its slots held for 200 ms by names that never answer.
const STALLED_MS = 200;
const STALLED_MIN_MS = 10;
const STALLED_RTTS = 8;
const STALLED_FACTOR = 8;

// Answers (names and NXDOMAIN) are kept for their TTL, at most an hour, in
// a cache of this many addresses. A negative answer without an SOA record
// to give its TTL, and an answer through the system resolver (which gives
// no TTL), are kept for DEFAULT_TTL_S. Timeouts and failures are not kept.
const CACHE_ENTRIES = 10_000;
const MAX_TTL_S = 3600;
const DEFAULT_TTL_S = 60;

export class ReverseDns {
  readonly stats: DnsStats = {
    queries: 0,
    answered: 0,
    notFound: 0,
    timedOut: 0,
    failed: 0,
    skipped: 0,
    cached: 0,
  };
  /** DNS_SERVERS, or the system's name servers; empty: Deno.resolveDns. */
  #servers: NameServer[];
  /** One UDP client per server (none when the system resolver is asked). */
  #clients: UdpDnsClient[];
  /** Per server (one entry for the system resolver): failures in a row. */
  #health: { failures: number; restUntil: number; answeredAt: number }[];
  #next = 0;
  /** Queries holding one of the `concurrency` slots. */
  #active = 0;
  /** Queries sent and not yet answered or timed out, stalled ones included. */
  #inFlight = 0;
  #waiting: (() => void)[] = [];
  #stalledMaxMs: number;
  /** Smoothed round trip of answered queries, ms (EWMA, 1/8). */
  #rttMs = STALLED_MS / STALLED_RTTS;
  #maxInFlight: number;
  #cache: TtlCache<string | null>;
  /** Lookups in flight by address: a second caller shares the first's. */
  #lookups = new Map<string, Promise<string | null>>();

  constructor(
    readonly settings: DnsSettings,
    system: () => NameServer[] = systemNameServers,
  ) {
    this.#servers = settings.servers.length > 0
      ? settings.servers.map(parseServer)
      : system();
    this.#clients = this.#servers.map((server) => new UdpDnsClient(server));
    this.#health = Array.from(
      { length: Math.max(1, this.#servers.length) },
      () => ({ failures: 0, restUntil: 0, answeredAt: 0 }),
    );
    this.#stalledMaxMs = Math.min(STALLED_MS, settings.timeoutMs / 2);
    this.#maxInFlight = settings.concurrency * STALLED_FACTOR;
    this.#cache = new TtlCache(settings.cacheEntries ?? CACHE_ENTRIES);
  }

  /** The servers asked: DNS_SERVERS, else the system's (empty: unknown). */
  get servers(): readonly NameServer[] {
    return this.#servers;
  }

  /** The host name of an address, or null (none, NXDOMAIN, timeout, error). */
  lookup(ip: string): Promise<string | null> {
    const cached = this.#cache.get(ip);
    if (cached !== undefined) {
      this.stats.cached++;
      return Promise.resolve(cached);
    }
    let pending = this.#lookups.get(ip);
    if (!pending) {
      pending = this.#limited(ip);
      this.#lookups.set(ip, pending);
    }
    return pending;
  }

  /** Ends queries in flight and closes the sockets (tests, shutdown). */
  close(): void {
    for (const client of this.#clients) client.close();
  }

  async #limited(ip: string): Promise<string | null> {
    if (this.#canStart()) this.#take();
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    // A query with no answer after a while gives up its slot (it still waits
    // for its answer until the timeout): addresses whose servers never
    // answer would otherwise hold every slot for the whole timeout and stall
    // the answerable ones. The number in flight stays bounded.
    let holding = true;
    const stalled = setTimeout(() => {
      holding = false;
      this.#active--;
      this.#wake();
    }, this.#stalledMs());
    try {
      return await this.#query(ip);
    } finally {
      this.#lookups.delete(ip);
      clearTimeout(stalled);
      if (holding) this.#active--;
      this.#inFlight--;
      this.#wake();
    }
  }

  #canStart(): boolean {
    return this.#active < this.settings.concurrency &&
      this.#inFlight < this.#maxInFlight;
  }

  #take(): void {
    this.#active++;
    this.#inFlight++;
  }

  #wake(): void {
    while (this.#waiting.length > 0 && this.#canStart()) {
      this.#take();
      this.#waiting.shift()!();
    }
  }

  /** The next server not resting, round-robin; -1 when all are resting. */
  #pickServer(): number {
    const now = Date.now();
    for (let k = 0; k < this.#health.length; k++) {
      const i = this.#next++ % this.#health.length;
      if (this.#health[i].restUntil <= now) return i;
    }
    return -1;
  }

  #stalledMs(): number {
    return Math.min(
      this.#stalledMaxMs,
      Math.max(STALLED_MIN_MS, this.#rttMs * STALLED_RTTS),
    );
  }

  /** An answer (a name or NXDOMAIN) from `server` to a query sent at `sentAt`. */
  #answered(server: number, sentAt: number): void {
    const now = performance.now();
    const health = this.#health[server];
    health.failures = 0;
    health.answeredAt = Math.max(health.answeredAt, now);
    this.#rttMs += (now - sentAt - this.#rttMs) / 8;
  }

  /** No answer from `server` to a query sent at `sentAt`. */
  #failed(server: number, sentAt: number): void {
    const health = this.#health[server];
    // It answered something sent after this one: alive, not a failure.
    if (health.answeredAt > sentAt) return;
    if (++health.failures >= BREAK_AFTER) {
      health.restUntil = Date.now() +
        Math.max(REST_MS, this.settings.timeoutMs);
      // One more failure after the rest rests it again.
      health.failures = BREAK_AFTER - 1;
    }
  }

  async #query(ip: string): Promise<string | null> {
    const server = this.#pickServer();
    if (server < 0) {
      this.stats.skipped++;
      return null;
    }
    this.stats.queries++;
    const sentAt = performance.now();
    const name = reverseName(ip);
    const client = this.#clients[server];
    let answer: PtrAnswer = client
      ? await client.query(name, this.settings.timeoutMs)
      : { kind: "truncated" };
    // Too long for a datagram (or no server known): Deno's resolver, which
    // retries over TCP and reads the system's settings.
    if (answer.kind === "truncated") {
      answer = await this.#resolveDns(name, this.#servers[server]);
    }
    switch (answer.kind) {
      case "found": {
        this.stats.answered++;
        this.#answered(server, sentAt);
        const host = answer.name.toLowerCase();
        this.#keep(ip, host, answer.ttl);
        return host;
      }
      case "notFound":
        this.stats.notFound++;
        this.#answered(server, sentAt);
        this.#keep(ip, null, answer.ttl ?? DEFAULT_TTL_S);
        return null;
      case "timeout":
        this.stats.timedOut++;
        this.#failed(server, sentAt);
        return null;
      default:
        this.stats.failed++;
        this.#failed(server, sentAt);
        return null;
    }
  }

  #keep(ip: string, host: string | null, ttlS: number): void {
    this.#cache.set(ip, host, Math.min(ttlS, MAX_TTL_S) * 1000);
  }

  async #resolveDns(
    name: string,
    server: NameServer | undefined,
  ): Promise<PtrAnswer> {
    const options: Deno.ResolveDnsOptions = {
      signal: AbortSignal.timeout(this.settings.timeoutMs),
    };
    if (server) options.nameServer = server;
    try {
      const names = await Deno.resolveDns(name, "PTR", options);
      const first = names[0]?.replace(/\.$/, "");
      return first
        ? { kind: "found", name: unescapeName(first), ttl: DEFAULT_TTL_S }
        : { kind: "notFound", ttl: DEFAULT_TTL_S };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        return { kind: "notFound", ttl: DEFAULT_TTL_S };
      }
      return options.signal?.aborted ? { kind: "timeout" } : { kind: "failed" };
    }
  }
}
