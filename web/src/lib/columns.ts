// Which CSV column holds the IP addresses (SPEC.md section 5).

/** Header names that suggest an IP column, as SPEC.md lists them. */
export const IP_COLUMN_HINTS = [
  "ip",
  "ip_address",
  "ipaddress",
  "ip-address",
  "ipv4",
  "address",
  "host",
  "host_ip",
  "server",
  "server_ip",
  "client_ip",
];

/** Hints that name an IP column outright, preferred over "address" or "host". */
const STRONG_HINTS = new Set([
  "ip",
  "ip_address",
  "ipaddress",
  "ip-address",
  "ipv4",
  "ipv6",
  "host_ip",
  "server_ip",
  "client_ip",
]);

function score(header: string): number {
  const name = header.trim().toLowerCase();
  if (!IP_COLUMN_HINTS.some((hint) => name.includes(hint))) return 0;
  if (STRONG_HINTS.has(name)) return 4;
  const words = name.split(/[^a-z0-9]+/).filter(Boolean);
  if (words.some((w) => STRONG_HINTS.has(w))) return 3;
  if (words.some((w) => IP_COLUMN_HINTS.includes(w))) return 2;
  return 1;
}

/**
 * The header to preselect: the first one whose lower-case name contains a
 * hint, preferring names that are an IP hint outright ("client_ip" before
 * "email_address", "ip" before "zip"); the first header when none match.
 */
export function defaultIpColumn(headers: readonly string[]): string {
  let best = "";
  let bestScore = 0;
  for (const header of headers) {
    const s = score(header);
    if (s > bestScore) {
      best = header;
      bestScore = s;
    }
  }
  return bestScore > 0 ? best : headers[0] ?? "";
}

/** Headers that match a hint, in file order. */
export function matchingIpColumns(headers: readonly string[]): string[] {
  return headers.filter((h) => score(h) > 0);
}
