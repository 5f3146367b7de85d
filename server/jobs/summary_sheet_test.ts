import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import { emptySummary, type JobSummary } from "../../shared/summary.ts";
import { addSummarySheet, summarySheetRows } from "./summary_sheet.ts";

const SUMMARY: JobSummary = {
  ...emptySummary(3),
  rows: { total: 10, successful: 8, failed: 2, filtered: 3, kept: 7 },
  networkTypes: [{ network_type: "consumer_isp", count: 3, filtered: 3 }],
  topCompanies: [{ company: "Google LLC", count: 5 }],
  topCountries: [{ country: "Germany", country_code: "DE", count: 4 }],
  failedByReason: [{ reason: "Invalid IP address format", count: 2 }],
};

Deno.test("Summary sheet: the summary's tables, first in the workbook", async () => {
  const output = new PassThrough();
  const chunks: Uint8Array[] = [];
  output.on("data", (c: Uint8Array) => chunks.push(c));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useSharedStrings: false,
    useStyles: false,
  });
  addSummarySheet(workbook, SUMMARY, "DB-IP Lite City 2.3.2026060513");
  const data = workbook.addWorksheet("Enriched");
  data.addRow(["ip"]).commit();
  data.commit();
  await workbook.commit();

  const read = new ExcelJS.Workbook();
  await read.xlsx.load(
    Buffer.concat(chunks) as unknown as Parameters<typeof read.xlsx.load>[0],
  );
  assertEquals(read.worksheets.map((s) => s.name), ["Summary", "Enriched"]);
  const sheet = read.getWorksheet("Summary")!;
  const text: unknown[][] = [];
  sheet.eachRow((row) =>
    text.push(Array.from((row.values as unknown[]).slice(1), (v) => v ?? ""))
  );
  // The rows as the page's tiles count them: kept + left out = rows.
  assertEquals(text.slice(0, 7), [
    ["Rows"],
    ["", "Rows", "Note"],
    ["Rows", 10, "kept + left out"],
    ["Kept in the download", 7, "rows of the CSV and .xlsx; 2 of them failed"],
    ["Consumer ISP", 3, "left out of the download"],
    ["Mobile network", 0, "left out of the download"],
    ["Failed", 2, "kept in the download with the reason"],
  ]);
  const flat = text.map((r) => r.join("|"));
  for (
    const line of [
      "Consumer ISP|3|3",
      "Google LLC|5",
      "Germany|DE|4",
      "Invalid IP address format|2",
      "Databases|DB-IP Lite City 2.3.2026060513",
    ]
  ) assertEquals(flat.includes(line), true, line);
});

Deno.test("empty tables say so", () => {
  const rows = summarySheetRows(emptySummary(1));
  const asns = rows.findIndex((r) => r[0] === "Top ASNs");
  assertEquals(rows[asns + 2], ["(none)"]);
});

Deno.test("a job from before data versions says so", () => {
  const rows = summarySheetRows(emptySummary(1));
  const data = rows.findIndex((r) => r[0] === "Data");
  assertEquals(
    rows[data + 2][1],
    "not recorded (a job from before versions were kept)",
  );
});
