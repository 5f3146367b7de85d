// A job's parts as earlier versions stored them: named by their chunk alone,
// before runs named them; and, for tests of the part migration
// (server/results/part_migration.ts), a blob per section, no index in the
// chunk's meta; `asCells` chunks as c7df1dc kept them (rows as cells, not
// lines; no `.addrs`), the others as 604f446 did.
import { serialize } from "node:v8";
import {
  type JobResults,
  partKey,
  SECTIONS,
} from "../../server/results/job_results.ts";
import {
  decodeColumns,
  resultAt,
} from "../../server/results/result_columns.ts";

/** Rows as kept before lines: their cells joined, where each row starts. */
function asCellRows(rows: Uint8Array): Uint8Array {
  const columns = decodeColumns(rows);
  const { lines: _, lineEnds: _ends, dialect: _dialect, ...rest } = columns;
  let text = "";
  const ends: number[] = [];
  const cellStart = [0];
  for (let i = 0; i < columns.count; i++) {
    for (const cell of resultAt(columns, i).original) {
      text += cell;
      ends.push(text.length);
    }
    cellStart.push(ends.length);
  }
  return serialize({
    ...rest,
    cells: { text, ends: Int32Array.from(ends) },
    cellStart: Int32Array.from(cellStart),
  });
}

/** Stores a job's chunks' parts again named by their chunk alone. */
export async function storeUnnamed(
  results: JobResults,
  jobId: number,
): Promise<void> {
  for (const { chunk, meta } of await results.chunks.outputs(jobId)) {
    const { run, ...unnamed } = meta;
    for (const kind of ["csv", "idx"] as const) {
      const bytes = await results.blobs.bytes(partKey(jobId, chunk, run, kind));
      await results.blobs.put(
        partKey(jobId, chunk, undefined, kind),
        ReadableStream.from([bytes]),
      );
    }
    await results.deleteParts(jobId, chunk, run!);
    await results.chunks.setMeta(jobId, chunk, unnamed);
  }
}

/**
 * Stores a job's chunks' indexes, named by their chunk alone
 * (storeUnnamed), again a blob per section (see above).
 */
export async function storeAsSections(
  results: JobResults,
  jobId: number,
  asCells: number[] = [],
): Promise<void> {
  for (const output of await results.chunks.outputs(jobId)) {
    const prefix = `results/${jobId}/${output.chunk}`;
    const index = await results.blobs.bytes(`${prefix}.idx`);
    const ends = output.meta.index!;
    const old = asCells.includes(output.chunk);
    for (const [s, end] of ends.entries()) {
      const start = s === 0 ? 0 : ends[s - 1];
      let bytes: Uint8Array = index.slice(start, end);
      if (old && SECTIONS[s] === "addrs") continue;
      if (old && SECTIONS[s] === "rows") bytes = asCellRows(bytes);
      if (bytes.length === 0) continue;
      await results.blobs.put(
        `${prefix}.${SECTIONS[s]}`,
        ReadableStream.from([bytes]),
      );
    }
    await results.blobs.delete(`${prefix}.idx`);
    const { index: _, ...meta } = output.meta;
    await results.chunks.setMeta(jobId, output.chunk, meta);
  }
}
