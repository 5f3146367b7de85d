// How a job's host-name lookups ended, as one line a user reads: whether a
// missing host name means none exists or no answer came in time.
import type { HostnameLookups } from "../../../shared/wire.ts";
import { formatCount } from "./format.ts";

/** "Host names: 41,200 found · 8,300 none exist · 500 timed out · 0 skipped" */
export function hostnameLookupsText(lookups: HostnameLookups): string {
  const { answered, noName, timedOut, skipped } = lookups;
  return `Host names: ${formatCount(answered)} found · ${
    formatCount(noName)
  } none exist · ${formatCount(timedOut)} timed out · ${
    formatCount(skipped)
  } skipped`;
}
