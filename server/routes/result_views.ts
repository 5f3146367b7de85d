// Stored results in the wire shapes: a preview row, a live-feed row.
import type { PreviewRow, ResultRow } from "../../shared/wire.ts";
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
  };
}

export function toResultRow(row: StoredResult, headers: string[]): ResultRow {
  const originalData: Record<string, string> = {};
  headers.forEach((name, i) => originalData[name] = row.original[i] ?? "");
  const { success, error, ispFiltered: _f, ...data } = row.enrichment;
  return {
    id: row.rowIndex + 1,
    rowIndex: row.rowIndex,
    success,
    error,
    originalData,
    enrichmentData: data,
  };
}
