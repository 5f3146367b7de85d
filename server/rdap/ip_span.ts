// Address arithmetic for registration data: addresses as integers (bigint,
// so IPv4 and IPv6 share one code path), sortable keys for the cache, and
// the CIDR blocks that make up a start-end range.
import ipaddr from "ipaddr.js";

export type Family = 4 | 6;

export interface Address {
  family: Family;
  value: bigint;
}

export interface Span {
  family: Family;
  start: bigint;
  end: bigint;
}

const BITS: Record<Family, number> = { 4: 32, 6: 128 };

/** The address as a number; IPv4-mapped IPv6 counts as IPv4. Null if invalid. */
export function parseAddress(text: string): Address | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(text.trim().replace(/%.*$/, ""));
  } catch {
    return null;
  }
  const family: Family = parsed.kind() === "ipv4" ? 4 : 6;
  let value = 0n;
  for (const byte of parsed.toByteArray()) value = (value << 8n) | BigInt(byte);
  return { family, value };
}

export function formatAddress(address: Address): string {
  const bytes: number[] = [];
  let value = address.value;
  for (let i = 0; i < BITS[address.family] / 8; i++) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  return ipaddr.fromByteArray(bytes).toString();
}

/**
 * Fixed-width lower-case hex (8 digits for IPv4, 32 for IPv6): within one
 * family, text order is numeric order, so SQLite can compare keys as text.
 */
export function addressKey(family: Family, value: bigint): string {
  return value.toString(16).padStart(BITS[family] / 4, "0");
}

export function keyValue(key: string): bigint {
  return BigInt(`0x${key}`);
}

/** The block of `prefix` bits that holds the address. */
export function enclosingBlock(address: Address, prefix: number): Span {
  const hostBits = BigInt(BITS[address.family] - prefix);
  const size = 1n << hostBits;
  const start = (address.value >> hostBits) << hostBits;
  return { family: address.family, start, end: start + size - 1n };
}

export function contains(span: Span, address: Address): boolean {
  return span.family === address.family && span.start <= address.value &&
    address.value <= span.end;
}

/** The part of `a` inside `b`, or null when they do not overlap. */
export function intersect(a: Span, b: Span): Span | null {
  if (a.family !== b.family) return null;
  const start = a.start > b.start ? a.start : b.start;
  const end = a.end < b.end ? a.end : b.end;
  return start <= end ? { family: a.family, start, end } : null;
}

/** "start - end" given as text, as RDAP networks give them. */
export function spanOf(startText: string, endText: string): Span | null {
  const start = parseAddress(startText);
  const end = parseAddress(endText);
  if (!start || !end || start.family !== end.family) return null;
  if (start.value > end.value) return null;
  return { family: start.family, start: start.value, end: end.value };
}

/** "192.0.2.0/24" as a span; null when not a valid CIDR. */
export function parseCidr(text: string): Span | null {
  const slash = text.indexOf("/");
  if (slash < 0) return null;
  const address = parseAddress(text.slice(0, slash));
  const prefix = Number(text.slice(slash + 1));
  if (!address || !Number.isInteger(prefix)) return null;
  if (prefix < 0 || prefix > BITS[address.family]) return null;
  return enclosingBlock(address, prefix);
}

/** The fewest CIDR blocks that exactly make up the span, in order. */
export function spanToCidrs(span: Span): string[] {
  const bits = BITS[span.family];
  const cidrs: string[] = [];
  let start = span.start;
  while (start <= span.end) {
    // The largest aligned block starting here that does not pass the end.
    let hostBits = 0;
    while (hostBits < bits) {
      const size = 1n << BigInt(hostBits + 1);
      if (start % size !== 0n || start + size - 1n > span.end) break;
      hostBits++;
    }
    cidrs.push(
      `${formatAddress({ family: span.family, value: start })}/${
        bits - hostBits
      }`,
    );
    start += 1n << BigInt(hostBits);
  }
  return cidrs;
}

/**
 * An RDAP answer describes the most specific network registered for the
 * address asked about; a carrier's /8 may still hold a customer's /26
 * elsewhere. So an answer is reused only within the asked address's /24
 * (IPv6: /48), or its own network when smaller: customer blocks are rarely
 * smaller than that. Every cached range lies inside one such block.
 */
export const REUSE_PREFIX = { 4: 24, 6: 48 } as const;

export function reuseBlock(address: Address): Span {
  return enclosingBlock(address, REUSE_PREFIX[address.family]);
}
