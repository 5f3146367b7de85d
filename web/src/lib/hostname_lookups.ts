// How a job's host-name lookups ended, each outcome with its count and what
// it means: whether a missing host name means none exists or no answer came.
import type { HostnameLookups } from "../../../shared/wire.ts";
import { formatCount } from "./format.ts";

export interface HostnameOutcome {
  /** "41,200 found" */
  text: string;
  /** What the outcome means for the rows' host names. */
  meaning: string;
}

export function hostnameOutcomes(lookups: HostnameLookups): HostnameOutcome[] {
  const { answered, noName, timedOut, skipped } = lookups;
  return [
    {
      text: `${formatCount(answered)} found`,
      meaning: "the address has a host name, shown in the row",
    },
    {
      text: `${formatCount(noName)} none exist`,
      meaning: "the DNS server answered that the address has no host name",
    },
    {
      text: `${formatCount(timedOut)} timed out`,
      meaning:
        "no answer in time, or the DNS server failed: a host name may exist",
    },
    {
      text: `${formatCount(skipped)} skipped`,
      meaning:
        "not asked, as every DNS server was resting after failing: a host name may exist",
    },
  ];
}
