// Reverse DNS (PTR) with a per-query timeout and a concurrency limit, so a
// resolver that never answers cannot stall a job: such a row has no hostname.
import ipaddr from "ipaddr.js";
import { getDomain } from "tldts";

export interface DnsSettings {
  /** "host" or "host:port" ("[::1]:53" for IPv6); empty: the system's. */
  servers: string[];
  timeoutMs: number;
  concurrency: number;
}

interface NameServer {
  ipAddr: string;
  port: number;
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
}

// A server that fails this many queries in a row (no answer at all, not
// NXDOMAIN) is rested: its queries are skipped at once until the rest is
// over, then it is tried again. A dead resolver thus costs a job a few
// timeouts, not one timeout per remaining row.
const BREAK_AFTER = 20;
const REST_MS = 5000;

// After this long without an answer a query stops counting against
// DNS_CONCURRENCY; at most STALLED_FACTOR times DNS_CONCURRENCY queries are
// in flight in all.
const STALLED_MS = 200;
const STALLED_FACTOR = 8;

export class ReverseDns {
  readonly stats: DnsStats = {
    queries: 0,
    answered: 0,
    notFound: 0,
    timedOut: 0,
    failed: 0,
    skipped: 0,
  };
  #servers: NameServer[];
  /** Per server (one entry for the system resolvers): failures in a row. */
  #health: { failures: number; restUntil: number }[];
  #next = 0;
  /** Queries holding one of the `concurrency` slots. */
  #active = 0;
  /** Queries sent and not yet answered or timed out, stalled ones included. */
  #inFlight = 0;
  #waiting: (() => void)[] = [];
  #stalledMs: number;
  #maxInFlight: number;

  constructor(readonly settings: DnsSettings) {
    this.#servers = settings.servers.map(parseServer);
    this.#health = Array.from(
      { length: Math.max(1, this.#servers.length) },
      () => ({ failures: 0, restUntil: 0 }),
    );
    this.#stalledMs = Math.min(STALLED_MS, settings.timeoutMs / 2);
    this.#maxInFlight = settings.concurrency * STALLED_FACTOR;
  }

  /** The host name of an address, or null (none, NXDOMAIN, timeout, error). */
  async lookup(ip: string): Promise<string | null> {
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
    }, this.#stalledMs);
    try {
      return await this.#query(ip);
    } finally {
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

  #record(server: number, answered: boolean): void {
    const health = this.#health[server];
    if (answered) {
      health.failures = 0;
    } else if (++health.failures >= BREAK_AFTER) {
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
    const options: Deno.ResolveDnsOptions = {
      signal: AbortSignal.timeout(this.settings.timeoutMs),
    };
    if (this.#servers.length > 0) options.nameServer = this.#servers[server];
    try {
      const names = await Deno.resolveDns(reverseName(ip), "PTR", options);
      const first = names[0]?.replace(/\.$/, "");
      const name = first ? unescapeName(first).toLowerCase() : null;
      if (name) this.stats.answered++;
      else this.stats.notFound++;
      this.#record(server, true);
      return name;
    } catch (error) {
      const notFound = error instanceof Deno.errors.NotFound;
      if (notFound) this.stats.notFound++;
      else if (options.signal?.aborted) this.stats.timedOut++;
      else this.stats.failed++;
      this.#record(server, notFound);
      return null;
    }
  }
}
