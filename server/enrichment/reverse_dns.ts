// Over 300 lines: the lookup path (window, resend, breaker, cache and the
// outcome of each lookup) is one class, read best in one place.
//
// Reverse DNS (PTR) with a resend, a timeout and an adaptive concurrency
// window, so a resolver that never answers cannot stall a job (such a row
// has no hostname) and one far away is kept busy; every lookup's outcome is
// counted.
// Queries go over UDP (dns_client.ts) to DNS_SERVERS, or to the name
// servers of /etc/resolv.conf when it is empty; recent answers are cached.
import {
  type NameServer,
  type PtrAnswer,
  systemNameServers,
  UdpDnsClient,
} from "./dns_client.ts";
import { AdaptiveWindow, type WindowStats } from "./dns_window.ts";
import { TtlCache } from "./ttl_cache.ts";
import {
  type DnsStats,
  emptyOutcomes,
  type LookupOutcomes,
  type LookupResult,
} from "./dns_outcomes.ts";

export {
  type DnsStats,
  emptyOutcomes,
  type LookupOutcome,
  type LookupOutcomes,
  type LookupResult,
} from "./dns_outcomes.ts";
import {
  DEFAULT_TTL_S,
  parseServer,
  resolvePtrWithDeno,
  reverseName,
} from "./dns_names.ts";

export {
  parseServer,
  registrableDomain,
  reverseName,
  unescapeName,
} from "./dns_names.ts";

export type { NameServer };

export interface DnsSettings {
  /** "host" or "host:port" ("[::1]:53" for IPv6); empty: the system's. */
  servers: string[];
  timeoutMs: number;
  concurrency: number;
  /** Addresses whose answers are cached (default 10,000; 0: no cache). */
  cacheEntries?: number;
}

// A server is dead, and rested, when BREAK_AFTER queries in a row got no
// answer and it answered nothing sent after any of them: it was silent for
// the whole life of those queries (first and second wait) while they were
// outstanding. While it rests its lookups are skipped at once, and counted
// as such, so neither a job nor a single lookup waits on it. A probe (a
// PTR query for 127.0.0.1, which every resolver answers, with a name or
// NXDOMAIN) is sent in the background when it is rested and then every
// REST_MS: the first answer ends the rest. Answers lost under load are not
// this: the server answers other queries meanwhile, and the window shrinks
// instead (dns_window.ts); a zone whose servers never answer can look like
// it, and then the probe's answer ends the rest within a round trip.
const BREAK_AFTER = 5;
const REST_MS = 5000;
const PROBE_NAME = reverseName("127.0.0.1");

// A query leaves the window after two round trips without an answer, or
// when it is resent (a silent zone, or a lost datagram); at most
// STALLED_FACTOR times the window are in flight in all, resends included,
// so a window that shrank sends less.
const STALLED_FACTOR = 8;

// At most BURST queries are started every BURST_MS: a stall (ours or the
// server's) ends with hundreds of answers at once, and starting as many
// queries at once overflowed the server's socket.
const BURST = 64;
const BURST_MS = 2;

// Linux's default receive buffer (212,992 bytes) holds ~250 small
// datagrams; Deno cannot enlarge it, so a large window gets more sockets.
const SOCKET_WINDOW = 128;
const MAX_SOCKETS = 16;

// Answers (names and NXDOMAIN) are kept for their TTL, at most an hour, in
// a cache of this many addresses. A negative answer without an SOA record
// to give its TTL, and an answer through the system resolver (which gives
// no TTL), are kept for DEFAULT_TTL_S. Timeouts and failures are not kept.
const CACHE_ENTRIES = 10_000;
/**
 * The cache of a thread or process that runs jobs' chunks: a job's chunks
 * are looked up apart, so an address met again in a later chunk is
 * answered from here rather than asked again (some 15 MB when full).
 */
export const JOB_CACHE_ENTRIES = 100_000;
const MAX_TTL_S = 3600;

interface ServerHealth {
  /** Queries in a row that got no answer (see BREAK_AFTER). */
  failures: number;
  /** Skipped until a probe is answered. */
  resting: boolean;
  /** When the next probe may go (Date.now() ms). */
  probeAt: number;
  /** When its latest answer came (performance.now() ms). */
  answeredAt: number;
}

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
  #outcomes = emptyOutcomes();
  /** DNS_SERVERS, or the system's name servers; empty: Deno.resolveDns. */
  #servers: NameServer[];
  /** One UDP client per server (none when the system resolver is asked). */
  #clients: UdpDnsClient[];
  /** Per server (one entry for the system resolver): its health. */
  #health: ServerHealth[];
  #next = 0;
  #window: AdaptiveWindow;
  /** Queries waiting for the answer to their first send (the window). */
  #firstWait = 0;
  /** Queries sent and not yet answered or timed out, resent ones included. */
  #inFlight = 0;
  /** Lookups waiting for a place, first at `#waitingHead` (a FIFO). */
  #waiting: (() => void)[] = [];
  #waitingHead = 0;
  /** Queries started since the pacer's timer was set. */
  #burst = 0;
  #pacer: ReturnType<typeof setTimeout> | null = null;
  #cache: TtlCache<string | null>;
  /** Lookups in flight by address: a second caller shares the first's. */
  #lookups = new Map<string, Promise<LookupResult>>();

  constructor(
    readonly settings: DnsSettings,
    system: () => NameServer[] = systemNameServers,
  ) {
    this.#servers = settings.servers.length > 0
      ? settings.servers.map(parseServer)
      : system();
    // A socket per SOCKET_WINDOW queries of the ceiling: the answers to a
    // full window then fit the sockets' default kernel buffers.
    const sockets = Math.min(
      MAX_SOCKETS,
      Math.ceil(settings.concurrency / SOCKET_WINDOW),
    );
    this.#clients = this.#servers.map((server) =>
      new UdpDnsClient(server, sockets)
    );
    this.#health = Array.from(
      { length: Math.max(1, this.#servers.length) },
      () => ({ failures: 0, resting: false, probeAt: 0, answeredAt: 0 }),
    );
    this.#window = new AdaptiveWindow(settings.concurrency);
    this.#cache = new TtlCache(settings.cacheEntries ?? CACHE_ENTRIES);
  }

  /** The servers asked: DNS_SERVERS, else the system's (empty: unknown). */
  get servers(): readonly NameServer[] {
    return this.#servers;
  }

  /** The adaptive window: its size now, peak, changes and losses seen. */
  get window(): Readonly<WindowStats> {
    return this.#window.stats;
  }

  /** Lookups waiting for a place in the window (not sent yet). */
  get queued(): number {
    return this.#waiting.length - this.#waitingHead;
  }

  /** How every lookup of this resolver ended so far (a copy). */
  outcomes(): LookupOutcomes {
    return { ...this.#outcomes };
  }

  /**
   * The host name of an address, or null (none, timed out, skipped). Its
   * outcome is counted here and, when given, in `outcomes` (a job's own).
   */
  async lookup(ip: string, outcomes?: LookupOutcomes): Promise<string | null> {
    const result = await this.resolve(ip);
    if (outcomes) outcomes[result.outcome]++;
    return result.host;
  }

  /** The host name of an address and how its lookup ended (counted). */
  resolve(ip: string): Promise<LookupResult> {
    const cached = this.#cache.get(ip);
    if (cached !== undefined) {
      this.stats.cached++;
      const outcome = cached === null ? "no_name" : "answered";
      this.#outcomes[outcome]++;
      return Promise.resolve({ host: cached, outcome });
    }
    let pending = this.#lookups.get(ip);
    if (!pending) {
      pending = this.#limited(ip);
      this.#lookups.set(ip, pending);
    }
    return pending.then((result) => {
      this.#outcomes[result.outcome]++;
      return result;
    });
  }

  /** Ends queries in flight and closes the sockets (tests, shutdown). */
  close(): void {
    clearTimeout(this.#pacer ?? undefined);
    this.#pacer = null;
    for (const client of this.#clients) client.close();
  }

  async #limited(ip: string): Promise<LookupResult> {
    if (this.#canStart()) this.#take();
    else {
      if (this.#firstWait >= this.#window.size) this.#window.saturated();
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    let holding = true;
    const release = () => {
      if (!holding) return;
      holding = false;
      this.#firstWait--;
      this.#wake();
    };
    try {
      return await this.#query(ip, release);
    } finally {
      this.#lookups.delete(ip);
      release();
      this.#inFlight--;
      this.#wake();
    }
  }

  #canStart(): boolean {
    return this.#burst < BURST && this.#firstWait < this.#window.size &&
      this.#inFlight < this.#window.size * STALLED_FACTOR;
  }

  #take(): void {
    this.#firstWait++;
    this.#inFlight++;
    this.#burst++;
    this.#pacer ??= setTimeout(() => {
      this.#pacer = null;
      this.#burst = 0;
      this.#wake();
    }, BURST_MS);
  }

  #wake(): void {
    while (this.queued > 0 && this.#canStart()) {
      this.#take();
      this.#waiting[this.#waitingHead++]();
    }
    // Array.shift() moves every element: with 20,000 waiting that is work
    // per lookup. The front is dropped now and then instead.
    if (
      this.#waitingHead > 1024 && this.#waitingHead * 2 > this.#waiting.length
    ) {
      this.#waiting = this.#waiting.slice(this.#waitingHead);
      this.#waitingHead = 0;
    }
    if (this.queued > 0 && this.#firstWait >= this.#window.size) {
      this.#window.saturated();
    }
  }

  /** The next server not resting, round-robin; -1 when all are resting. */
  #pickServer(): number {
    for (let k = 0; k < this.#health.length; k++) {
      const i = this.#next++ % this.#health.length;
      if (!this.#health[i].resting) return i;
      this.#probeWhenDue(i);
    }
    return -1;
  }

  /** An answer (a name or NXDOMAIN) from `server`; `lost`: to the resend. */
  #answered(server: number, rttMs: number, lost: boolean): void {
    this.#alive(server);
    this.#window.answered(rttMs, lost);
  }

  #alive(server: number): void {
    const health = this.#health[server];
    health.failures = 0;
    health.resting = false;
    health.answeredAt = Math.max(health.answeredAt, performance.now());
  }

  /** No answer from `server` to a query sent at `sentAt`. */
  #failed(server: number, sentAt: number): void {
    const health = this.#health[server];
    // It answered something sent after this one: alive, not a failure.
    if (health.answeredAt > sentAt) return;
    if (++health.failures >= BREAK_AFTER && !health.resting) {
      health.resting = true;
      health.probeAt = 0;
      this.#probeWhenDue(server);
    }
  }

  /** A resting server's probe, unless one is out or the last was recent. */
  #probeWhenDue(server: number): void {
    const health = this.#health[server];
    const now = Date.now();
    if (health.probeAt > now) return;
    // Also the time to wait after this probe fails: one at a time.
    health.probeAt = now + Math.max(REST_MS, 2 * this.settings.timeoutMs);
    const client = this.#clients[server];
    const timeoutMs = this.settings.timeoutMs;
    const probe = client
      ? client.query(PROBE_NAME, { firstMs: timeoutMs, secondMs: timeoutMs })
      : resolvePtrWithDeno(PROBE_NAME, this.#servers[server], timeoutMs);
    probe.then((answer) => {
      if (answer.kind === "found" || answer.kind === "notFound") {
        this.#alive(server);
      }
    }, () => {/* closed: the resolver is shutting down */});
  }

  async #query(ip: string, release: () => void): Promise<LookupResult> {
    const server = this.#pickServer();
    if (server < 0) {
      this.stats.skipped++;
      return { host: null, outcome: "skipped" };
    }
    this.stats.queries++;
    const sentAt = performance.now();
    const name = reverseName(ip);
    const client = this.#clients[server];
    let lost = false;
    let answerRttMs = 0;
    const firstMs = this.#window.firstTimeoutMs(this.settings.timeoutMs);
    // Silent addresses would otherwise hold the window for the whole first
    // wait and starve the answerable ones; the number in flight stays
    // bounded by STALLED_FACTOR.
    const hold = setTimeout(release, this.#window.holdMs(firstMs));
    let answer: PtrAnswer = client
      ? await client.query(name, {
        firstMs,
        secondMs: this.settings.timeoutMs,
        onResend: release,
        onAnswer: (send, rttMs) => {
          lost = send === 2;
          answerRttMs = rttMs;
        },
      })
      : { kind: "truncated" };
    clearTimeout(hold);
    // Too long for a datagram (or no server known): Deno's resolver, which
    // retries over TCP and reads the system's settings.
    if (answer.kind === "truncated") {
      answer = await resolvePtrWithDeno(
        name,
        this.#servers[server],
        this.settings.timeoutMs,
      );
    }
    switch (answer.kind) {
      case "found": {
        this.stats.answered++;
        this.#answered(server, answerRttMs, lost);
        const host = answer.name.toLowerCase();
        this.#keep(ip, host, answer.ttl);
        return { host, outcome: "answered" };
      }
      case "notFound":
        this.stats.notFound++;
        this.#answered(server, answerRttMs, lost);
        this.#keep(ip, null, answer.ttl ?? DEFAULT_TTL_S);
        return { host: null, outcome: "no_name" };
      case "timeout":
        this.stats.timedOut++;
        this.#failed(server, sentAt);
        return { host: null, outcome: "timed_out" };
      default:
        // SERVFAIL, REFUSED or a malformed answer came from a server that is
        // up (often one broken zone); a send this machine refused says nothing
        // of the server. Only silence rests it.
        this.stats.failed++;
        return { host: null, outcome: "timed_out" };
    }
  }

  #keep(ip: string, host: string | null, ttlS: number): void {
    this.#cache.set(ip, host, Math.min(ttlS, MAX_TTL_S) * 1000);
  }
}
