// Stored results in the shapes of SPEC.md section 3.
import type { PreviewRow, ResultRow } from "../../shared/wire.ts";
import { errorText } from "../enrichment/types.ts";
import type { StoredResult } from "../storage/store.ts";

export function toPreviewRow({ enrichment: e }: StoredResult): PreviewRow {
  return {
    ip: e.ip,
    domain: e.domain,
    company: e.company,
    city: e.city,
    country: e.country,
    isp: e.isp,
    ispFiltered: e.ispFiltered,
    asn: e.asn,
    networkType: e.network_type,
    classificationReason: e.classification_reason,
  };
}

export function toResultRow(row: StoredResult, headers: string[]): ResultRow {
  const originalData: Record<string, string> = {};
  headers.forEach((name, i) => originalData[name] = row.original[i] ?? "");
  const { success, failure: _e, ispFiltered: _f, ...data } = row.enrichment;
  const error = errorText(row.enrichment, "job");
  return {
    id: row.rowIndex + 1,
    rowIndex: row.rowIndex,
    success,
    error,
    originalData,
    enrichmentData: data,
  };
}
