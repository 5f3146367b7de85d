// A job's download as an HTTP response: each original line exactly as
// stored, then the new cells (results/output_row.ts), in the upload's
// dialect; consumer-ISP rows left out. The chunks' parts are in this format
// already (results/chunk_output.ts), so the download is the header line and
// their bytes one after another.
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobResults } from "../results/job_results.ts";

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

/** The CSV download: the header, then the stored chunks' kept rows. */
export async function csvDownload(
  results: JobResults,
  job: JobRecord,
): Promise<Response> {
  return new Response(await results.csvBody(job), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": attachment(downloadName(job, "csv")),
      "cache-control": "no-store",
    },
  });
}
