// Results into a job's partition with COPY (text format), and the text rules
// PostgreSQL needs: its text cannot hold U+0000, which SQLite keeps and
// uploads may carry (a header or an address cell of a binary file). Names and
// addresses taken from the upload are stored as JSON, which escapes it; any
// other text has it replaced by U+FFFD.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type postgres from "postgres";
import { ENRICHMENT_FIELDS } from "../../../shared/enrichment_fields.ts";
import {
  insertResultsSql,
  resultPusher,
  type SqlValue,
  type StoredResult,
} from "../result_rows.ts";
import { partitionName } from "./pg_schema.ts";

export const ENCODED_JOB_COLUMNS = ["original_file_name", "ip_column_name"];
export const encodeText = (text: string) => JSON.stringify(text);
export const withoutNul = (text: string) => text.replaceAll("\0", "\uFFFD");

const pushResult = resultPusher(ENRICHMENT_FIELDS);
// The results columns in the order resultPusher gives values.
const RESULT_COLUMNS = insertResultsSql(ENRICHMENT_FIELDS, 1)
  .match(/\(([^)]*)\)/)![1];
const WIDTH = RESULT_COLUMNS.split(",").length;
const IP_VALUE = RESULT_COLUMNS.split(",").map((c) => c.trim()).indexOf("ip");

/** One value in COPY's text format. */
function copyField(value: SqlValue): string {
  if (value === null) return "\\N";
  if (typeof value === "number") return String(value);
  return withoutNul(value).replace(
    /[\\\t\n\r]/g,
    (c) =>
      c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
  );
}

/** COPYs results into the job's partition, inside the caller's transaction. */
export async function copyResults(
  tx: postgres.TransactionSql,
  jobId: number,
  results: StoredResult[],
): Promise<void> {
  const values: SqlValue[] = [];
  let text = "";
  for (const result of results) {
    values.length = 0;
    pushResult(values, jobId, result);
    values[IP_VALUE] = encodeText(values[IP_VALUE] as string);
    for (let i = 0; i < WIDTH; i++) {
      text += (i === 0 ? "" : "\t") + copyField(values[i]);
    }
    text += "\n";
  }
  const writable = await tx.unsafe(
    `COPY ${partitionName(jobId)} (${RESULT_COLUMNS}) FROM STDIN`,
  ).writable();
  await pipeline(Readable.from([text]), writable);
}
