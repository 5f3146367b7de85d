// Words and shapes for the summary charts: pure, so tests run them in Deno.
import type { CountryCount, JobSummary } from "../../../../shared/summary.ts";
import {
  NETWORK_TYPE_LABELS,
  type NetworkType,
} from "../../../../shared/network_types.ts";
import { numericCountryCode } from "./iso_numeric.ts";

export function networkTypeLabel(type: string | null): string {
  return type === null
    ? "Unknown"
    : NETWORK_TYPE_LABELS[type as NetworkType] ?? type;
}

/** Shortens a label to `max` characters with an ellipsis. */
export function shorten(label: string, max: number): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}

/** Left margin and label length for a bar chart `width` pixels wide. */
export function barLayout(width: number, labels: readonly string[]) {
  const longest = Math.max(1, ...labels.map((l) => l.length));
  // About 6.5 px a character at Plot's 10 px font; at most 40% of the width.
  const margin = Math.min(
    Math.ceil(longest * 6.5) + 10,
    Math.floor(width * 0.4),
  );
  return {
    marginLeft: margin,
    maxChars: Math.max(4, Math.floor((margin - 10) / 6.5)),
  };
}

export interface Bar {
  label: string;
  count: number;
}

export const companyBars = (s: JobSummary): Bar[] =>
  s.topCompanies.map((c) => ({ label: c.company, count: c.count }));

export const countryBars = (s: JobSummary): Bar[] =>
  s.topCountries.map((c) => ({ label: c.country, count: c.count }));

export const networkTypeBars = (s: JobSummary): Bar[] =>
  s.networkTypes.map((t) => ({
    label: networkTypeLabel(t.network_type),
    count: t.count,
  }));

/** "Google LLC (1,204 rows), Amazon (880 rows) and 3 more." */
export function describeBars(bars: readonly Bar[], what: string): string {
  if (bars.length === 0) return `No ${what} yet.`;
  const sorted = [...bars].sort((a, b) => b.count - a.count);
  const n = (count: number) =>
    `${count.toLocaleString("en-US")} row${count === 1 ? "" : "s"}`;
  const first = sorted.slice(0, 3).map((b) => `${b.label} (${n(b.count)})`);
  const more = bars.length > 3 ? ` and ${bars.length - 3} more` : "";
  return `Bar chart of ${what}, largest first: ${first.join(", ")}${more}.`;
}

/** Rows per country, keyed as world-atlas keys its shapes (ISO numeric). */
export function countsByNumericCode(
  countries: readonly CountryCount[],
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of countries) {
    const id = numericCountryCode(c.country_code);
    if (id) counts.set(id, (counts.get(id) ?? 0) + c.count);
  }
  return counts;
}
