// Server-side filters for a job's results preview: by network type, by kept,
// filtered or failed, and a text search in company or ASN, paged in input order,
// so a user can find every row of one company in a large job. Applied to
// the job's chunks by results/job_results.ts.
import { NETWORK_TYPES } from "../../shared/network_types.ts";
import { PREVIEW_STATUSES, type PreviewStatus } from "../../shared/wire.ts";

export interface PreviewFilter {
  /** A network type, or "unknown" for rows without one. */
  networkType?: (typeof NETWORK_TYPES)[number] | "unknown";
  /** Kept (in the download), filtered (left out) or failed rows only. */
  status?: PreviewStatus;
  /** Part of the company or the ASN ("google", "AS15169", "15169"). */
  text?: string;
}

export const MAX_FILTER_TEXT = 200;

/**
 * Reads the filter from query parameters `network_type`, `status` and `q`;
 * an error message for a value it does not know.
 */
export function parsePreviewFilter(
  query: URLSearchParams,
): { filter: PreviewFilter } | { error: string } {
  const filter: PreviewFilter = {};
  const type = query.get("network_type")?.trim();
  if (type) {
    if (
      type !== "unknown" && !(NETWORK_TYPES as readonly string[]).includes(type)
    ) {
      return {
        error: `network_type must be one of ${
          [...NETWORK_TYPES, "unknown"].join(", ")
        }`,
      };
    }
    filter.networkType = type as PreviewFilter["networkType"];
  }
  const status = query.get("status")?.trim();
  if (status) {
    if (!(PREVIEW_STATUSES as readonly string[]).includes(status)) {
      return { error: `status must be one of ${PREVIEW_STATUSES.join(", ")}` };
    }
    filter.status = status as PreviewStatus;
  }
  const text = query.get("q")?.trim();
  if (text) {
    if (text.length > MAX_FILTER_TEXT) {
      return { error: `q must be at most ${MAX_FILTER_TEXT} characters` };
    }
    filter.text = text;
  }
  return { filter };
}

/** A text search counts matches up to this many ("10,000+"). */
export const COUNT_CAP = 10_000;
