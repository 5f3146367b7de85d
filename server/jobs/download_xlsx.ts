// "Export Excel": the job's summary on a first sheet, "Summary", then the
// same rows and columns as the CSV download, written by exceljs's streaming
// writer a page at a time.
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import type { JobSummary } from "../../shared/summary.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";
import {
  attachment,
  downloadName,
  keptRows,
  outputColumns,
  outputHeader,
  outputRow,
} from "./download.ts";
import { addSummarySheet } from "./summary_sheet.ts";

export function xlsxDownload(
  store: JobStore,
  job: JobRecord,
  summary: JobSummary,
): Response {
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useSharedStrings: false,
    useStyles: false,
  });
  // A streaming workbook writes sheets in order: the summary goes first.
  addSummarySheet(workbook, summary);
  const sheet = workbook.addWorksheet("Enriched");
  const columns = outputColumns(job);
  (async () => {
    sheet.addRow(outputHeader(job)).commit();
    for await (const page of keptRows(store, job)) {
      for (const row of page) {
        sheet.addRow(outputRow(job, columns, row)).commit();
      }
      // Let the response drain between pages.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error) => output.destroy(error));
  return new Response(
    ReadableStream.from(output as AsyncIterable<Uint8Array>),
    {
      headers: {
        "content-type":
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "content-disposition": attachment(downloadName(job, "xlsx")),
        "cache-control": "no-store",
      },
    },
  );
}
