// A job's download: the original columns untouched, then the enrichment
// columns of the option groups chosen (in group order, each group's fields
// in field-table order), then success and error; consumer-ISP rows left
// out. Streamed from the database a page at a time, so memory stays flat.
import {
  ALWAYS,
  type EnrichmentField,
  FIELD_GROUPS,
  fieldsOfGroup,
} from "../../shared/enrichment_fields.ts";
import { csvField, formatCsvRows, neutraliseFormula } from "../csv/csv_rows.ts";
import { errorText } from "../enrichment/types.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { StoredResult } from "../storage/result_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";

type Column = EnrichmentField;

const PAGE_ROWS = 2000;

export function outputColumns(job: JobRecord): Column[] {
  return [
    ...FIELD_GROUPS.filter((group) => job.options[group])
      .flatMap(fieldsOfGroup),
    ...fieldsOfGroup(ALWAYS),
  ];
}

export function outputHeader(job: JobRecord): string[] {
  return [
    ...job.headers,
    ...outputColumns(job),
    "enrichment_success",
    "enrichment_error",
  ];
}

/** One output row: values of a spreadsheet-formula shape are neutralised. */
export function outputRow(
  job: JobRecord,
  columns: Column[],
  { original, enrichment }: StoredResult,
): (string | number)[] {
  const cells: (string | number)[] = job.headers.map((_, i) =>
    original[i] ?? ""
  );
  for (const column of columns) {
    const value = enrichment[column];
    cells.push(
      value === null || value === undefined
        ? ""
        : typeof value === "number"
        ? value
        : neutraliseFormula(String(value)),
    );
  }
  cells.push(enrichment.success ? "true" : "false");
  const error = errorText(enrichment, "job");
  cells.push(error ? neutraliseFormula(error) : "");
  return cells;
}

/**
 * Rows of a job are stored below this index. A whole-file run stores rows
 * [0, processedIPs); a job run in chunks (PostgreSQL mode) stores each
 * chunk's rows from the chunk's first row on, so a cancelled or failed one
 * may hold rows anywhere below its total.
 */
export function storedRowsEnd(job: JobRecord): number {
  return Math.max(job.processedIPs, job.totalIPs);
}

/** Pages of kept rows, in input order, up to the rows committed now. */
export async function* keptRows(
  store: JobStore,
  job: JobRecord,
): AsyncGenerator<StoredResult[]> {
  const end = storedRowsEnd(job);
  for (let from = 0; from < end; from += PAGE_ROWS) {
    yield await store.resultsBetween(
      job.id,
      from,
      Math.min(from + PAGE_ROWS, end),
      true,
    );
  }
}

export function downloadName(job: JobRecord, extension: string): string {
  const base = job.originalFileName.replace(/\.csv$/i, "");
  const suffix = job.status === "completed" ? "enriched" : "partial";
  return `${base}-${suffix}.${extension}`;
}

/** Content-Disposition with an ASCII fallback and the UTF-8 name. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${
    encodeURIComponent(name)
  }`;
}

/**
 * The CSV text of kept rows in [from, to): the same text as formatCsvRows
 * over outputRow, built from the stored values without a result object
 * per row.
 */
async function csvPage(
  store: JobStore,
  job: JobRecord,
  columns: Column[],
  from: number,
  to: number,
): Promise<string> {
  const width = job.headers.length;
  const rows = await store.keptRowValues(job.id, from, to, columns);
  let text = "";
  for (const row of rows) {
    const original = JSON.parse(row[0] as string) as string[];
    for (let i = 0; i < width; i++) {
      if (i > 0) text += ",";
      text += csvField(original[i] ?? "");
    }
    for (let c = 1; c <= columns.length; c++) {
      const value = row[c];
      text += ",";
      if (value === null || value === undefined) continue;
      text += typeof value === "number"
        ? csvField(value)
        : csvField(neutraliseFormula(String(value)));
    }
    const error = row[columns.length + 2];
    text += row[columns.length + 1] === 1 ? ",true," : ",false,";
    if (error) text += csvField(neutraliseFormula(String(error)));
    text += "\r\n";
  }
  return text;
}

export function csvDownload(store: JobStore, job: JobRecord): Response {
  const columns = outputColumns(job);
  const end = storedRowsEnd(job);
  let from = 0;
  const encoder = new TextEncoder();
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(formatCsvRows([outputHeader(job)])));
        return;
      }
      // A pull that enqueues nothing is not called again: skip pages whose
      // rows were all left out (consumer ISPs) until one has text.
      while (from < end) {
        const to = Math.min(from + PAGE_ROWS, end);
        const text = await csvPage(store, job, columns, from, to);
        from = to;
        if (text) {
          controller.enqueue(encoder.encode(text));
          return;
        }
      }
      controller.close();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": attachment(downloadName(job, "csv")),
      "cache-control": "no-store",
    },
  });
}
