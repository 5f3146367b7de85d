// Which CSV column holds the IP addresses: the configuration step preselects
// the header that looks most like one.

/** Header names that suggest an IP column, matched as substrings. */
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

/** How strongly a header suggests IP addresses: 0 (not at all) to 4. */
function ipColumnScore(header: string): number {
  const name = header.trim().toLowerCase();
  if (!IP_COLUMN_HINTS.some((hint) => name.includes(hint))) return 0;
  if (STRONG_HINTS.has(name)) return 4;
  const words = name.split(/[^a-z0-9]+/).filter(Boolean);
  if (words.some((word) => STRONG_HINTS.has(word))) return 3;
  if (words.some((word) => IP_COLUMN_HINTS.includes(word))) return 2;
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
    const headerScore = ipColumnScore(header);
    if (headerScore > bestScore) {
      best = header;
      bestScore = headerScore;
    }
  }
  return bestScore > 0 ? best : headers[0] ?? "";
}

/** Headers that match a hint, in file order. */
export function matchingIpColumns(headers: readonly string[]): string[] {
  return headers.filter((header) => ipColumnScore(header) > 0);
}
