// Stored results in the wire shapes: a preview row, a live-feed row.
import { ENRICHMENT_FIELDS } from "../../shared/enrichment_fields.ts";
import type {
  EnrichmentData,
  PreviewRow,
  ResultRow,
} from "../../shared/wire.ts";
import type { StoredResult } from "../storage/result_rows.ts";
import { errorText } from "../enrichment/types.ts";

export function toPreviewRow({ enrichment: e }: StoredResult): PreviewRow {
  return {
    ip: e.ip,
    success: e.success,
    error: errorText(e, "job"),
    domain: e.domain,
    company: e.company,
    city: e.city,
    country: e.country,
    isp: e.isp,
    ispFiltered: e.ispFiltered,
    asn: e.asn,
    networkType: e.network_type,
    classificationReason: e.classification_reason,
    classificationConfidence: e.classification_confidence,
  };
}

export function toResultRow(row: StoredResult, headers: string[]): ResultRow {
  const originalData: Record<string, string> = {};
  headers.forEach((name, i) => originalData[name] = row.original[i] ?? "");
  const e = row.enrichment;
  // The address and the table's fields only, whatever else the record holds.
  const enrichmentData = Object.fromEntries([
    ["ip", e.ip],
    ...ENRICHMENT_FIELDS.map((field) => [field, e[field]]),
  ]) as EnrichmentData;
  return {
    id: row.rowIndex + 1,
    rowIndex: row.rowIndex,
    success: e.success,
    error: errorText(e, "job"),
    originalData,
    enrichmentData,
  };
}
