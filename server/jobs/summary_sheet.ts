// The .xlsx export's first sheet, "Summary": the summary's tables one under
// another, each with a title row and a header row. The caller adds it
// before the data sheet so a spreadsheet opens on it.
import type ExcelJS from "exceljs";
import {
  NETWORK_TYPE_LABELS,
  type NetworkType,
} from "../../shared/network_types.ts";
import { rowCountParts } from "../../shared/row_counts.ts";
import type { JobSummary } from "../../shared/summary.ts";

type Cell = string | number | null;

/**
 * The sheet's rows: blocks of title, header and data, a blank row between;
 * last, the databases the job ran on (`dataVersion`, null: not recorded).
 */
export function summarySheetRows(
  summary: JobSummary,
  dataVersion: string | null = null,
): Cell[][] {
  const rows: Cell[][] = [];
  const block = (title: string, header: string[], data: Cell[][]) => {
    if (rows.length > 0) rows.push([]);
    rows.push([title], header, ...(data.length > 0 ? data : [["(none)"]]));
  };
  // The rows as the page's tiles count them.
  const { total, totalNote, parts, failed } = rowCountParts(summary);
  block("Rows", ["", "Rows", "Note"], [
    ["Rows", total, totalNote],
    ...[...parts, failed].map((p) => [p.label, p.count, p.note]),
    ...(summary.distinctAddresses === undefined ? [] : [[
      "Distinct addresses",
      summary.distinctAddresses,
      "an address may repeat",
    ]]),
  ]);
  block(
    "Network types",
    ["Network type", "Rows", "Filtered"],
    summary.networkTypes.map((t) => [
      t.network_type === null
        ? "Unknown"
        : NETWORK_TYPE_LABELS[t.network_type as NetworkType] ?? t.network_type,
      t.count,
      t.filtered,
    ]),
  );
  block(
    "Top companies (kept rows)",
    ["Company", "Rows"],
    summary.topCompanies.map((c) => [c.company, c.count]),
  );
  block(
    "Top ASNs",
    ["ASN", "Rows"],
    summary.topAsns.map((a) => [a.asn, a.count]),
  );
  block(
    "Top countries",
    ["Country", "Country code", "Rows"],
    summary.topCountries.map((c) => [c.country, c.country_code, c.count]),
  );
  block(
    "Top cities",
    ["City", "Country code", "Rows"],
    summary.topCities.map((c) => [c.city, c.country_code, c.count]),
  );
  block(
    "Failed rows by reason",
    ["Reason", "Rows"],
    summary.failedByReason.map((f) => [f.reason, f.count]),
  );
  block("Data", ["", "Versions"], [[
    "Databases",
    dataVersion ?? "not recorded (a job from before versions were kept)",
  ]]);
  return rows;
}

/** Adds and commits the "Summary" sheet on a streaming workbook writer. */
export function addSummarySheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  summary: JobSummary,
  dataVersion: string | null = null,
): void {
  const sheet = workbook.addWorksheet("Summary");
  sheet.columns = [{ width: 48 }, { width: 16 }, { width: 40 }];
  for (const row of summarySheetRows(summary, dataVersion)) {
    sheet.addRow(row).commit();
  }
  sheet.commit();
}
