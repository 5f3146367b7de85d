// "Export Excel": the job's summary on a first sheet, "Summary", then the
// same rows and columns as the CSV download, written by exceljs's streaming
// writer a page at a time.
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import type { JobSummary } from "../../shared/summary.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobResults } from "../results/job_results.ts";
import { attachment, downloadName } from "./download.ts";
import { outputCells, outputHeader, outputRow } from "../results/output_row.ts";
import { addSummarySheet } from "./summary_sheet.ts";
import {
  FIELD_GROUPS,
  type FieldGroup,
} from "../../shared/enrichment_fields.ts";
import { MAX_XLSX_COLUMNS } from "../upload_formats/xlsx.ts";

const SHEET_LIMIT = `${
  MAX_XLSX_COLUMNS.toLocaleString("en-US")
} an .xlsx sheet holds`;

/** Why a job's .xlsx cannot be made (too many columns), or null. */
export function xlsxRefusal(job: JobRecord): string | null {
  const columns = outputHeader(job).length;
  if (columns <= MAX_XLSX_COLUMNS) return null;
  return `This job's results have ${columns.toLocaleString("en-US")} ` +
    `columns, more than the ${SHEET_LIMIT}: download the CSV instead.`;
}

/**
 * Said at upload when a job from a file of `headerCount` columns, with every
 * field added, would be too wide for the .xlsx download; else undefined.
 */
export function xlsxUploadNotice(headerCount: number): string | undefined {
  const every = Object.fromEntries(FIELD_GROUPS.map((group) => [group, true]));
  const added = outputCells(every as Record<FieldGroup, boolean>).length;
  if (headerCount + added <= MAX_XLSX_COLUMNS) return undefined;
  return `This file has ${headerCount.toLocaleString("en-US")} columns; ` +
    `with the enrichment columns that is more than the ${SHEET_LIMIT}, so ` +
    "its results can be downloaded as CSV only, not as Excel.";
}

export function xlsxDownload(
  results: JobResults,
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
  addSummarySheet(workbook, summary, job.dataVersion);
  const sheet = workbook.addWorksheet("Enriched");
  const columns = outputCells(job.options);
  (async () => {
    sheet.addRow(outputHeader(job)).commit();
    for await (const page of results.keptPages(job)) {
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
