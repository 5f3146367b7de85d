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
}

export class ReverseDns {
  readonly stats: DnsStats = {
    queries: 0,
    answered: 0,
    notFound: 0,
    timedOut: 0,
    failed: 0,
  };
  #servers: NameServer[];
  #next = 0;
  #active = 0;
  #waiting: (() => void)[] = [];

  constructor(readonly settings: DnsSettings) {
    this.#servers = settings.servers.map(parseServer);
  }

  /** The host name of an address, or null (none, NXDOMAIN, timeout, error). */
  async lookup(ip: string): Promise<string | null> {
    if (this.#active >= this.settings.concurrency) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#active++;
    try {
      return await this.#query(ip);
    } finally {
      this.#active--;
      this.#waiting.shift()?.();
    }
  }

  async #query(ip: string): Promise<string | null> {
    this.stats.queries++;
    const options: Deno.ResolveDnsOptions = {
      signal: AbortSignal.timeout(this.settings.timeoutMs),
    };
    if (this.#servers.length > 0) {
      options.nameServer = this.#servers[this.#next++ % this.#servers.length];
    }
    try {
      const names = await Deno.resolveDns(reverseName(ip), "PTR", options);
      const first = names[0]?.replace(/\.$/, "");
      const name = first ? unescapeName(first).toLowerCase() : null;
      if (name) this.stats.answered++;
      else this.stats.notFound++;
      return name;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) this.stats.notFound++;
      else if (options.signal?.aborted) this.stats.timedOut++;
      else this.stats.failed++;
      return null;
    }
  }
}
