// The words a lookup answers for a failed enrichment (a result row's are
// errorText's, enrichment/types.ts).
import { errorText } from "../enrichment/types.ts";
import type { Enrichment } from "../enrichment/types.ts";

/** What a lookup answers for text that is not an IP address. */
export const NOT_AN_IP_ADDRESS = "Invalid IP address format";

/** Whether the engine refused the text as not being an IP address. */
function isRefusedAsNotAnAddress(e: Enrichment): boolean {
  return !e.success && (!e.failure || e.failure.kind === "invalid");
}

/** The words a lookup answers in `error` for a failed enrichment. */
export function lookupErrorText(e: Enrichment): string {
  return isRefusedAsNotAnAddress(e)
    ? NOT_AN_IP_ADDRESS
    : errorText(e, "lookup") ?? "";
}
