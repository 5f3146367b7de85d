// Names in reverse DNS: DNS_SERVERS entries, the PTR question for an
// address, presentation-format names and their registrable domain.
import ipaddr from "ipaddr.js";
import { getDomain } from "tldts";
import type { NameServer } from "./dns_client.ts";
import type { PtrAnswer } from "./dns_answer.ts";

/** TTL of an answer that gives none, seconds. */
export const DEFAULT_TTL_S = 60;

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

/**
 * A PTR query through Deno.resolveDns (TCP when an answer is truncated, the
 * system's settings when no server is known). It gives no TTL.
 */
export async function resolvePtrWithDeno(
  name: string,
  server: NameServer | undefined,
  timeoutMs: number,
): Promise<PtrAnswer> {
  const options: Deno.ResolveDnsOptions = {
    signal: AbortSignal.timeout(timeoutMs),
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
