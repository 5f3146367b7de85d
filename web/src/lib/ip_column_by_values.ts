// Which column holds the IP addresses, judged by the values of the first
// rows: the column where most values read as addresses wins over a guess
// from the header names, which stays the fallback (columns.ts).
import { defaultIpColumn } from "./columns.ts";

/** Share of a column's non-empty sampled values that must be addresses. */
export const MIN_ADDRESS_SHARE = 0.5;

const IPV4 =
  /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6_CHARS = /^[0-9a-f:.]+$/i;

function isIpv6(text: string): boolean {
  if (!IPV6_CHARS.test(text) || !text.includes(":")) return false;
  const gaps = text.split("::").length - 1;
  if (gaps > 1) return false;
  let groups = text.split(":").filter((g) => g !== "");
  // An embedded IPv4 tail (::ffff:1.2.3.4) counts as two groups.
  const tail = groups.at(-1) ?? "";
  if (tail.includes(".")) {
    if (!IPV4.test(tail)) return false;
    groups = [...groups.slice(0, -1), "0", "0"];
  }
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false;
  return gaps === 1 ? groups.length < 8 : groups.length === 8;
}

/**
 * Whether a cell reads as an IP address as logs hold them: quoted or in
 * brackets, with a port, or the first entry of an X-Forwarded-For chain.
 */
export function looksLikeAddress(cell: string): boolean {
  let text = (cell ?? "").trim().split(/\s*,\s*/)[0] ?? "";
  text = text.replace(/^["'<(]+|["'>)]+$/g, "");
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0) return false;
    text = text.slice(1, end);
  } else if (/^[\d.]+:\d{1,5}$/.test(text)) {
    text = text.slice(0, text.indexOf(":"));
  }
  return IPV4.test(text) || isIpv6(text);
}

export interface IpColumnChoice {
  column: string;
  /** "values": most sampled values are addresses; "header": name rules. */
  by: "values" | "header";
  /** Share of the column's non-empty sampled values that are addresses. */
  share: number;
}

/**
 * Picks the IP column from the headers and the first rows. Among columns
 * whose sampled values are mostly addresses, the largest share wins; a tie
 * goes to the column the header rules prefer, then to the first.
 */
export function pickIpColumn(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): IpColumnChoice {
  const byName = defaultIpColumn(headers);
  let best: IpColumnChoice | null = null;
  headers.forEach((header, index) => {
    let filled = 0;
    let addresses = 0;
    for (const row of rows) {
      const value = (row[index] ?? "").trim();
      if (value === "") continue;
      filled++;
      if (looksLikeAddress(value)) addresses++;
    }
    if (filled === 0) return;
    const share = addresses / filled;
    if (share < MIN_ADDRESS_SHARE) return;
    if (
      !best || share > best.share ||
      (share === best.share && header === byName)
    ) {
      best = { column: header, by: "values", share };
    }
  });
  return best ?? { column: byName, by: "header", share: 0 };
}
