// Turns a CSV cell into a public IP address, or a reason it is not one.
import ipaddr from "ipaddr.js";
import type { Failure } from "../../shared/failures.ts";

export type ParsedIp =
  | { ok: true; ip: string; version: 4 | 6 }
  | { ok: false; ip: string; failure: Failure };

const NOT_AN_ADDRESS: Failure = Object.freeze({ kind: "invalid" });

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

// ipaddr.js's own IPv4 special ranges as numbers, in its order (the first
// match names the range, as ipaddr.subnetMatch does).
const V4_RANGES: { start: number; end: number; name: string }[] = Object
  .entries(
    (ipaddr.IPv4.prototype as unknown as {
      SpecialRanges: Record<string, [ipaddr.IPv4, number][]>;
    }).SpecialRanges,
  ).flatMap(([name, subnets]) =>
    subnets.map(([base, bits]) => {
      const start = ipv4ToNumber(base.toString());
      const size = 2 ** (32 - bits);
      return {
        start: start - (start % size),
        end: start - (start % size) + size - 1,
        name,
      };
    })
  );

// Dotted decimal without leading zeros: what ipaddr.js's
// isValidFourPartDecimal accepts, when no part is over 255.
const FOUR_PART_DECIMAL = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;

/**
 * The common case without ipaddr.js's general parser: the address text is
 * already canonical, and its range comes from the same table. Returns null
 * for anything else.
 */
function parseFourPartDecimal(text: string): ParsedIp | null {
  if (!FOUR_PART_DECIMAL.test(text)) return null;
  let n = 0;
  let part = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46;
    if (c === 46) {
      if (part > 255) return null;
      n = n * 256 + part;
      part = 0;
    } else part = part * 10 + (c - 48);
  }
  return parsedIpv4(n, text);
}

/**
 * An IPv4 address known as its number and its text as parseIp writes it
 * (dottedQuadAt), as parseIp reads that text.
 */
export function parsedIpv4(n: number, text: string): ParsedIp {
  const range = reservedIpv4(n);
  return range === null
    ? { ok: true, ip: text, version: 4 }
    : { ok: false, ip: text, failure: { kind: "reserved", range } };
}

/** Whether any of V4_RANGES has addresses in a /8, by its first byte. */
const SPECIAL_FIRST_BYTES = new Uint8Array(256);
for (const { start, end } of V4_RANGES) {
  SPECIAL_FIRST_BYTES.fill(1, start >>> 24, (end >>> 24) + 1);
}

/**
 * The special range (ipaddr.js's name) of an IPv4 address given as its
 * number, when it is not routed on the public internet; else null.
 */
export function reservedIpv4(n: number): string | null {
  // Most addresses are in a /8 with no special range: no search.
  if (SPECIAL_FIRST_BYTES[n >>> 24] === 0) return null;
  for (const { start, end, name } of V4_RANGES) {
    if (n >= start && n <= end) return PUBLIC_RANGES.has(name) ? null : name;
  }
  return null;
}

// ipaddr.js's own IPv6 special ranges, in its order: a range is one
// [address, prefix length] pair or a list of them.
type V6Subnet = [ipaddr.IPv6, number];
const V6_RANGES: { parts: number[]; bits: number; name: string }[] = Object
  .entries(
    (ipaddr.IPv6.prototype as unknown as {
      SpecialRanges: Record<string, V6Subnet | V6Subnet[]>;
    }).SpecialRanges,
  ).flatMap(([name, value]) =>
    (Array.isArray(value[0]) ? value as V6Subnet[] : [value as V6Subnet])
      .map(([base, bits]) => ({ parts: base.parts, bits, name }))
  );

/** Whether the first `bits` bits of two addresses' groups are the same. */
function samePrefix(parts: number[], base: number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const shift = bits >= 16 ? 0 : 16 - bits;
    if (parts[i] >> shift !== base[i] >> shift) return false;
  }
  return true;
}

/**
 * RFC 5952 text of eight groups, as ipaddr.js's toRFC5952String writes it:
 * lower-case hex without leading zeros, the leftmost longest run of two or
 * more zero groups as "::".
 */
function rfc5952(parts: number[]): string {
  let runAt = -1;
  let runLength = 1;
  for (let i = 0; i < 8;) {
    if (parts[i] !== 0) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < 8 && parts[end] === 0) end++;
    if (end - i > runLength) {
      runAt = i;
      runLength = end - i;
    }
    i = end;
  }
  let text = "";
  for (let i = 0; i < 8; i++) {
    if (i === runAt) {
      text += "::";
      i += runLength - 1;
      continue;
    }
    if (i > 0 && i !== runAt + runLength) text += ":";
    text += parts[i].toString(16);
  }
  return text;
}

/**
 * IPv6 text of hex groups (no embedded IPv4, no zone) without ipaddr.js's
 * general parser, which took some 5 µs an address: canonical text and
 * range from the same table. Null for any other text, and for IPv4-mapped
 * addresses, which ipaddr.js turns into IPv4.
 */
function parseHexGroups(text: string): ParsedIp | null {
  const parts = hexGroups(text);
  if (!parts) return null;
  for (const { parts: base, bits, name } of V6_RANGES) {
    if (!samePrefix(parts, base, bits)) continue;
    if (name === "ipv4Mapped") return null;
    if (PUBLIC_RANGES.has(name)) break;
    return {
      ok: false,
      ip: rfc5952(parts),
      failure: { kind: "reserved", range: name },
    };
  }
  return { ok: true, ip: rfc5952(parts), version: 6 };
}

export function parseIp(cell: string): ParsedIp {
  const text = stripPort(cell ?? "");
  const fast = parseFourPartDecimal(text) ?? parseHexGroups(text);
  if (fast) return fast;
  // IPv4 text parseFourPartDecimal refused is none that ipaddr.js takes
  // (its four-part decimal is the same pattern, each part <= 255), and
  // asking it would cost a thrown and caught error per such cell.
  if (!text.includes(":") || !ipaddr.IPv6.isValid(text)) {
    return { ok: false, ip: text, failure: NOT_AN_ADDRESS };
  }
  let addr: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.IPv6.parse(text);
  if (addr.isIPv4MappedAddress()) addr = addr.toIPv4Address();
  const ip = addr.toString();
  const range = addr.range();
  if (!PUBLIC_RANGES.has(range)) {
    return { ok: false, ip, failure: { kind: "reserved", range } };
  }
  return { ok: true, ip, version: addr.kind() === "ipv4" ? 4 : 6 };
}

/**
 * Bytes [start, end) as an IPv4 address written as parseIp writes it
 * (dotted decimal, no leading zeros, each part <= 255): its unsigned 32-bit
 * number, else -1. Lets a chunk know a cell's address without making its
 * text.
 */
export function dottedQuadAt(
  buf: Uint8Array,
  start: number,
  end: number,
): number {
  let n = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = start; i <= end; i++) {
    const c = i < end ? buf[i] : 46;
    if (c === 46) {
      if (digits === 0 || part > 255) return -1;
      n = n * 256 + part;
      part = 0;
      digits = 0;
      if (i < end && ++dots > 3) return -1;
    } else if (c >= 48 && c <= 57) {
      if (digits === 1 && part === 0) return -1; // a leading zero
      part = part * 10 + (c - 48);
      if (++digits > 3) return -1;
    } else return -1;
  }
  return dots === 3 ? n : -1;
}

/** Character codes of an address's text, refilled for each (ipv4Text). */
const codes: number[] = [];

/**
 * An unsigned 32-bit number as IPv4 dotted decimal: one flat string from
 * its character codes, not a chain of concatenations.
 */
export function ipv4Text(n: number): string {
  codes.length = 0;
  for (let shift = 24; shift >= 0; shift -= 8) {
    const part = (n >>> shift) & 255;
    if (part >= 100) codes.push(48 + Math.floor(part / 100));
    if (part >= 10) codes.push(48 + Math.floor(part / 10) % 10);
    codes.push(48 + part % 10);
    if (shift > 0) codes.push(46);
  }
  return String.fromCharCode.apply(null, codes);
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

/**
 * IPv6 text to four unsigned 32-bit words, most significant first, written
 * into `words` (a new array unless given).
 */
export function ipv6ToWords(ip: string, words: number[] = []): number[] {
  const p = hexGroups(ip) ?? ipaddr.IPv6.parse(ip).parts;
  words[0] = ((p[0] << 16) | p[1]) >>> 0;
  words[1] = ((p[2] << 16) | p[3]) >>> 0;
  words[2] = ((p[4] << 16) | p[5]) >>> 0;
  words[3] = ((p[6] << 16) | p[7]) >>> 0;
  return words;
}

/**
 * A public address (canonical text, as parseIp gives it) as the 32-bit
 * words the databases are searched by: one for IPv4, four for IPv6.
 */
export function addressWords(ip: string, version: 4 | 6): number[] {
  return version === 4 ? [ipv4ToNumber(ip)] : ipv6ToWords(ip);
}

/**
 * The eight groups of IPv6 text made only of hex groups and at most one
 * "::" (canonical text is), without ipaddr.js's general parser; null for
 * any other form. Read character by character: with a regular expression,
 * splits and spreads it was a tenth of a job's lookups.
 */
function hexGroups(ip: string): number[] | null {
  const gap = ip.indexOf("::");
  if (gap !== ip.lastIndexOf("::")) return null;
  const parts: number[] = [];
  if (gap < 0) {
    return readGroups(ip, 0, ip.length, parts) && parts.length === 8
      ? parts
      : null;
  }
  if (!readGroups(ip, 0, gap, parts)) return null;
  const front = parts.length;
  if (!readGroups(ip, gap + 2, ip.length, parts)) return null;
  const missing = 8 - parts.length;
  if (missing < 1) return null;
  // The groups after "::" move to the end, zeros fill the gap (in place).
  for (let k = 0; k < missing; k++) parts.push(0);
  for (let i = 7; i >= front + missing; i--) parts[i] = parts[i - missing];
  for (let i = front; i < front + missing; i++) parts[i] = 0;
  return parts;
}

/**
 * Appends the ":"-separated groups of 1-4 hex digits in ip[from, to) (none
 * when empty) to `parts`; false on anything else.
 */
function readGroups(
  ip: string,
  from: number,
  to: number,
  parts: number[],
): boolean {
  if (from === to) return true;
  let value = 0;
  let digits = 0;
  for (let i = from; i <= to; i++) {
    const c = i === to ? 58 : ip.charCodeAt(i);
    if (c === 58) { // ":"
      if (digits === 0) return false;
      parts.push(value);
      value = 0;
      digits = 0;
      continue;
    }
    const d = c >= 48 && c <= 57
      ? c - 48
      : c >= 97 && c <= 102
      ? c - 87
      : c >= 65 && c <= 70
      ? c - 55
      : -1;
    if (d < 0 || ++digits > 4) return false;
    value = value * 16 + d;
  }
  return true;
}
