// A job's summary from its counts: by kind (success, left out, network
// type, failure) and the top lists (companies, ASNs, countries, cities).
// The counts are added up from the job's chunks (job_results.ts).
import {
  type JobSummary,
  type NetworkTypeCount,
} from "../../shared/summary.ts";
import { parseKindKey, type TopDim } from "./chunk_output.ts";
import type { TopCount } from "./top_counts.ts";

/**
 * A summary from its counts: `kinds` keyed by
 * JSON [success, isp_filtered, network_type] with the error as code, and
 * each dimension's top SUMMARY_TOP_N counts, largest first.
 */
export function summaryFromCounts(
  jobId: number,
  kinds: TopCount[],
  top: (dim: TopDim) => TopCount[],
): JobSummary {
  const rows = { total: 0, successful: 0, failed: 0, filtered: 0, kept: 0 };
  const types = new Map<string | null, NetworkTypeCount>();
  const failures = new Map<string, number>();
  for (const { key, code, n } of kinds) {
    const [success, filtered, type] = parseKindKey(key);
    rows.total += n;
    if (filtered) rows.filtered += n;
    if (success) {
      rows.successful += n;
      const entry = types.get(type) ??
        { network_type: type, count: 0, filtered: 0 };
      entry.count += n;
      if (filtered) entry.filtered += n;
      types.set(type, entry);
    } else {
      rows.failed += n;
      const reason = code || "Unknown error";
      failures.set(reason, (failures.get(reason) ?? 0) + n);
    }
  }
  rows.kept = rows.total - rows.filtered;
  const byCount = <T extends { count: number }>(a: T, b: T) =>
    b.count - a.count;
  const orNull = (code: string) => code === "" ? null : code;

  return {
    jobId,
    rows,
    networkTypes: [...types.values()].sort(byCount),
    failedByReason: [...failures].map(([reason, count]) => ({ reason, count }))
      .sort(byCount),
    topCompanies: top("company").map((r) => ({
      company: r.key,
      count: r.n,
    })),
    topAsns: top("asn").map((r) => ({ asn: r.key, count: r.n })),
    topCountries: top("country").map((r) => ({
      country: r.key,
      country_code: orNull(r.code),
      count: r.n,
    })),
    topCities: top("city").map((r) => ({
      city: r.key,
      country_code: orNull(r.code),
      count: r.n,
    })),
  };
}
