// Turns a CSV cell into a public IP address, or a reason it is not one.
import ipaddr from "ipaddr.js";

export type ParsedIp =
  | { ok: true; ip: string; version: 4 | 6 }
  | { ok: false; ip: string; error: string };

export const INVALID_IP = "Invalid IP address";

const RANGE_REASONS: Record<string, string> = {
  private: "Private address (RFC 1918), not on the public internet",
  loopback: "Loopback address, not on the public internet",
  linkLocal: "Link-local address, not on the public internet",
  uniqueLocal:
    "Unique local address (private IPv6), not on the public internet",
  carrierGradeNat:
    "Shared address space (carrier-grade NAT, RFC 6598), not on the public internet",
  multicast: "Multicast address, not a single host",
  broadcast: "Broadcast address, not a single host",
  unspecified: "Unspecified address, not a host",
  reserved:
    "Reserved or documentation address (RFC 5737/3849), not on the public internet",
  benchmarking: "Benchmarking address (RFC 2544), not on the public internet",
};

// Ranges that are routed on the public internet.
const PUBLIC_RANGES = new Set(["unicast", "6to4", "teredo"]);

/** Strips a port ("1.2.3.4:80", "[2001:db8::1]:443") and IPv6 brackets. */
export function stripPort(cell: string): string {
  const value = cell.trim();
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end > 0 ? value.slice(1, end) : value;
  }
  const colon = value.indexOf(":");
  if (colon > 0 && colon === value.lastIndexOf(":") && value.includes(".")) {
    return value.slice(0, colon);
  }
  return value;
}

export function parseIp(cell: string): ParsedIp {
  const text = stripPort(cell ?? "");
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) {
    addr = ipaddr.IPv4.parse(text);
  } else if (text.includes(":") && ipaddr.IPv6.isValid(text)) {
    addr = ipaddr.IPv6.parse(text);
    if (addr.isIPv4MappedAddress()) addr = addr.toIPv4Address();
  } else {
    return { ok: false, ip: text, error: INVALID_IP };
  }
  const ip = addr.toString();
  const range = addr.range();
  if (!PUBLIC_RANGES.has(range)) {
    return {
      ok: false,
      ip,
      error: RANGE_REASONS[range] ??
        `Reserved address (${range}), not on the public internet`,
    };
  }
  return { ok: true, ip, version: addr.kind() === "ipv4" ? 4 : 6 };
}

/** IPv4 text to an unsigned 32-bit number. */
export function ipv4ToNumber(ip: string): number {
  let n = 0;
  let part = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      n = n * 256 + part;
      part = 0;
    } else part = part * 10 + (c - 48);
  }
  return n * 256 + part;
}

/** IPv6 text to four unsigned 32-bit words, most significant first. */
export function ipv6ToWords(ip: string): [number, number, number, number] {
  const p = ipaddr.IPv6.parse(ip).parts;
  return [
    ((p[0] << 16) | p[1]) >>> 0,
    ((p[2] << 16) | p[3]) >>> 0,
    ((p[4] << 16) | p[5]) >>> 0,
    ((p[6] << 16) | p[7]) >>> 0,
  ];
}
