// The words the HTTP answers give for a failed enrichment: the only place
// the HTTP edge reads why an enrichment failed.
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

/** The words a result row (preview feed) shows in `error`. */
export function rowErrorText(e: Enrichment): string | null {
  return errorText(e, "job");
}
