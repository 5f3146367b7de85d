// The download of PRODUCT.md "Output columns": original columns untouched,
// then the enrichment columns of the options chosen; consumer-ISP rows left
// out. Streamed from the database a page at a time, so memory stays flat.
import { formatCsvRows, neutraliseFormula } from "../csv/csv_rows.ts";
import type { Enrichment } from "../enrichment/types.ts";
import type { JobRecord, Store, StoredResult } from "../storage/store.ts";

type Column = keyof Enrichment;

const GROUPS: [keyof JobRecord["options"], Column[]][] = [
  ["geolocation", [
    "country",
    "country_code",
    "region",
    "city",
    "latitude",
    "longitude",
  ]],
  ["domain", ["hostname", "domain"]],
  ["company", ["company", "network_type"]],
  ["network", ["isp", "asn"]],
];

const PAGE_ROWS = 2000;

export function outputColumns(job: JobRecord): Column[] {
  return GROUPS.filter(([option]) => job.options[option])
    .flatMap(([, columns]) => columns);
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
  cells.push(enrichment.error ? neutraliseFormula(enrichment.error) : "");
  return cells;
}

/** Pages of kept rows, in input order, up to the rows committed now. */
export function* keptRows(
  store: Store,
  job: JobRecord,
): Generator<StoredResult[]> {
  const end = job.processedIPs;
  for (let from = 0; from < end; from += PAGE_ROWS) {
    yield store.resultsBetween(
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

export function csvDownload(store: Store, job: JobRecord): Response {
  const columns = outputColumns(job);
  const pages = keptRows(store, job);
  const encoder = new TextEncoder();
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(formatCsvRows([outputHeader(job)])));
        return;
      }
      const next = pages.next();
      if (next.done) {
        controller.close();
        return;
      }
      const text = formatCsvRows(
        next.value.map((row) => outputRow(job, columns, row)),
      );
      if (text) controller.enqueue(encoder.encode(text));
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
