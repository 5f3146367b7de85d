// From a cell as logs hold it to the address to look up, and a note saying
// what was read when it was not the cell as it stands: X-Forwarded-For and
// Forwarded chains, addresses with spaces, quotes, brackets or a port around
// them, IPv4-mapped IPv6, and host names (resolved forward later, A then
// AAAA).
import { type ParsedIp, parseIp } from "./ip_input.ts";

export type CellAddress =
  /** An address (public or not: `parsed` says which, and why not). */
  | { kind: "address"; parsed: ParsedIp; note: string | null }
  /** A host name to resolve forward; lower case, no trailing dot. */
  | { kind: "hostname"; hostname: string; note: string };

// Quotes and brackets logs wrap an address in: "1.2.3.4", '1.2.3.4',
// <1.2.3.4>, (1.2.3.4). IPv6 brackets ([::1]:443) are stripPort's.
const WRAPPERS: [string, string][] = [
  ['"', '"'],
  ["'", "'"],
  ["`", "`"],
  ["<", ">"],
  ["(", ")"],
];

function unwrap(text: string): string {
  let value = text.trim();
  for (let changed = true; changed && value.length >= 2;) {
    changed = false;
    for (const [open, close] of WRAPPERS) {
      if (value.startsWith(open) && value.endsWith(close)) {
        value = value.slice(1, -1).trim();
        changed = true;
      }
    }
  }
  return value;
}

/** One entry of a Forwarded header (`for=192.0.2.60;proto=http`), or as is. */
function forwardedFor(entry: string): string {
  const match = /(?:^|;)\s*for=([^;]*)/i.exec(entry);
  return unwrap(match ? match[1] : entry);
}

// RFC 1123 host names with at least two labels and a top-level domain that
// is not all digits (so "1.2.3.999" is an invalid address, not a host).
const HOSTNAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A host name with an optional port ("mail.example.com:25"). */
function hostnameOf(text: string): string | null {
  const name = text.toLowerCase().replace(/:\d{1,5}$/, "").replace(/\.$/, "");
  return HOSTNAME.test(name) ? name : null;
}

function single(text: string): CellAddress {
  const parsed = parseIp(text);
  if (parsed.ok || parsed.failure.kind !== "invalid") {
    const mapped = parsed.ok && parsed.version === 4 &&
      /::ffff:/i.test(text);
    return {
      kind: "address",
      parsed,
      note: mapped
        ? `IPv4-mapped IPv6 address; looked up as ${parsed.ip}`
        : null,
    };
  }
  const hostname = hostnameOf(text);
  if (hostname) {
    return {
      kind: "hostname",
      hostname,
      note: `Host name ${hostname}; resolved to an address (A, then AAAA)`,
    };
  }
  return { kind: "address", parsed, note: null };
}

/**
 * What was dropped from a cell to read the address `ip` from it, as a note;
 * null when the cell is the address as it stands.
 */
export function cellNote(cell: string, ip: string): string | null {
  if (cell === ip) return null;
  const dropped: string[] = [];
  if (/\s/.test(cell)) dropped.push("spaces");
  if (/["'`]/.test(cell)) dropped.push("quotes");
  if (/[[\]<>()]/.test(cell)) dropped.push("brackets");
  const port = (ip.includes(".") ? /\d\]?:(\d{1,5})\b/ : /\]:(\d{1,5})\b/)
    .exec(cell);
  if (port) dropped.push(`port ${port[1]}`);
  const what = dropped.length === 0
    ? "Written in another form"
    : `${dropped.slice(0, -1).join(", ")}${dropped.length > 1 ? " and " : ""}${
      dropped.at(-1)
    } dropped`;
  return `${what[0].toUpperCase()}${what.slice(1)}; looked up as ${ip}`;
}

/**
 * Reads a cell. A chain ("81.2.69.142, 10.0.0.1", as X-Forwarded-For holds
 * it, client first) gives its first public address; a chain with none gives
 * its first entry, whose failure says why.
 */
export function readIpCell(cell: string): CellAddress {
  const text = unwrap(cell ?? "");
  const entries = text.split(/\s*,\s*|\s+/).map(forwardedFor).filter((e) =>
    e !== ""
  );
  if (entries.length <= 1) {
    const read = single(entries[0] ?? text);
    return read.kind === "address" && read.note === null
      ? { ...read, note: cellNote(cell ?? "", read.parsed.ip) }
      : read;
  }
  for (let i = 0; i < entries.length; i++) {
    const read = single(entries[i]);
    if (read.kind === "address" && read.parsed.ok) {
      const where = i === 0
        ? "first address"
        : `first public address (entry ${i + 1})`;
      return {
        kind: "address",
        parsed: read.parsed,
        note:
          `Forwarded chain of ${entries.length} addresses; used the ${where}, ${read.parsed.ip}`,
      };
    }
  }
  const first = single(entries[0]);
  return first.kind === "address"
    ? {
      ...first,
      note: `Forwarded chain of ${entries.length} addresses with no public one`,
    }
    : first;
}
