// Why an address could not be enriched: a named kind travels inward, and the
// words for it are chosen here, once, for the HTTP answers and the downloads.

export const FAILURE_KINDS = [
  "invalid",
  "reserved",
  "no_data",
  "corrupt_record",
  "hostname",
  "unresolved",
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** A failed row or lookup: the kind, plus detail where the kind has one. */
export interface Failure {
  kind: FailureKind;
  /**
   * For `reserved`: which range ("private", "loopback", ...). For
   * `unresolved`: why ("no_address", "no_answer", "private_only").
   */
  range?: string;
  /** For `corrupt_record`: what the database reader found wrong. */
  detail?: string;
}

const RANGE_WORDS: Record<string, string> = {
  private: "Private address (RFC 1918), not on the public internet",
  loopback: "Loopback address, not on the public internet",
  linkLocal: "Link-local address, not on the public internet",
  uniqueLocal:
    "Unique local address (private IPv6), not on the public internet",
  carrierGradeNat:
    "Shared address space (carrier-grade NAT, RFC 6598), not on the public internet",
  multicast: "Multicast address, not a single host",
  broadcast: "Broadcast address, not a single host",
  unspecified: "Unspecified address, not a host",
  reserved:
    "Reserved or documentation address (RFC 5737/3849), not on the public internet",
  benchmarking: "Benchmarking address (RFC 2544), not on the public internet",
};

const UNRESOLVED_WORDS: Record<string, string> = {
  no_address: "Host name has no address (no A or AAAA record)",
  no_answer:
    "Host name could not be resolved (no answer from the name servers)",
  private_only:
    "Host name resolves only to addresses not on the public internet",
};

/** The reserved ranges with words of their own (ipaddr.js's range names). */
export const NAMED_RANGES: readonly string[] = Object.keys(RANGE_WORDS);

/**
 * Who reads the words: a lookup answer (GET /api/lookup, batch, BigQuery),
 * or a job's rows (the stored error column, downloads, the live feed). They
 * differ only for an address that is not one.
 */
export type FailureAudience = "lookup" | "job";

/** The words a user reads for a failure. */
export function failureMessage(
  failure: Failure,
  audience: FailureAudience = "lookup",
): string {
  switch (failure.kind) {
    case "invalid":
      return audience === "lookup"
        ? "Invalid IP address format"
        : "Invalid IP address";
    case "no_data":
      return "No data found for this address";
    case "corrupt_record":
      return failure.detail ??
        "The database record for this address is corrupt";
    case "hostname":
      return "A host name, not an IP address; tick Resolve host names to look it up";
    case "unresolved":
      return UNRESOLVED_WORDS[failure.range ?? ""] ??
        UNRESOLVED_WORDS.no_answer;
    case "reserved":
      return RANGE_WORDS[failure.range ?? ""] ??
        `Reserved address (${failure.range}), not on the public internet`;
  }
}
