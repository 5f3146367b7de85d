// Parts stored before a chunk's index existed, a blob per section
// (`{chunk}.rows`, `.top`, `.tail`, `.nets`, and `.addrs` where kept),
// rewritten once at start as the chunk's `.idx` (job_results.ts SECTIONS),
// so the readers know one format. Rows kept as cells, not lines, get lines
// in the job's dialect; a chunk without `.addrs` gets its distinct
// addresses from its rows. Safe to stop at any point and to run in several
// processes at once: the index is written, then recorded with the chunk,
// then the old blobs go, `.rows` last, so a chunk whose `.rows` is still
// there is looked at again; the `format` blob says the pass ended.
import { deserialize } from "node:v8";
import { formatRows } from "../csv/dialect.ts";
import { dialectOf } from "./output_row.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { ChunkOutputRecord } from "../storage/chunk_progress.ts";
import type { JobStore } from "../storage/store_interface.ts";
import { addressOf, encodeAddresses } from "./distinct_addresses.ts";
import type { JobResults, Section } from "./job_results.ts";
import {
  encodeColumns,
  joinedAt,
  type JoinedText,
  resultAt,
  type ResultColumns,
} from "./result_columns.ts";

const FORMAT_KEY = "results/format";
const FORMAT = "idx";
const OLD_BLOB = /^results\/(\d+)\/(\d+)\.rows$/;
/** Old section blobs, `rows` last (see above). */
const OLD_SECTIONS: Section[] = ["top", "tail", "nets", "addrs", "rows"];

const encoder = new TextEncoder();

/** Rows as kept before lines: each row's cells, which cell each starts at. */
interface CellColumns extends Omit<ResultColumns, "lines" | "lineEnds"> {
  cells?: JoinedText;
  cellStart?: Int32Array;
  lines?: Uint8Array;
  lineEnds?: Int32Array;
}

/** A chunk's rows with lines: as stored, or written from its cells. */
function withLines(job: JobRecord, columns: CellColumns): ResultColumns {
  const { cells, cellStart, ...rest } = columns;
  if (columns.lines || !cells || !cellStart) return columns as ResultColumns;
  const dialect = dialectOf(job);
  let lines = "";
  const lineEnds = new Int32Array(columns.count);
  let end = 0;
  for (let i = 0; i < columns.count; i++) {
    const row: string[] = [];
    for (let k = cellStart[i]; k < cellStart[i + 1]; k++) {
      row.push(joinedAt(cells, k) ?? "");
    }
    const line = formatRows([row], dialect).slice(0, -dialect.newline.length);
    lines += line;
    lineEnds[i] = end += encoder.encode(line).length;
  }
  const { delimiter, quote, newline } = dialect;
  return {
    ...rest,
    lines: encoder.encode(lines),
    lineEnds,
    dialect: { delimiter, quote, newline },
  } as ResultColumns;
}

/** Writes one chunk's index from its old blobs and records it. */
async function indexChunk(
  results: JobResults,
  job: JobRecord,
  output: ChunkOutputRecord,
): Promise<void> {
  const key = (name: Section) => `results/${job.id}/${output.chunk}.${name}`;
  const read = (name: Section) => results.blobs.bytes(key(name));
  // A chunk with no tails, or stored before distinct addresses, has none.
  const readIf = async (name: Section) =>
    await results.blobs.head(key(name)) ? await read(name) : null;
  // Rows kept as lines are kept as they are.
  const stored = await read("rows");
  const old = deserialize(stored) as CellColumns;
  const columns = withLines(job, old);
  let addrs = await readIf("addrs");
  if (!addrs) {
    const addresses = new Set<string>();
    for (let i = 0; i < columns.count; i++) {
      const address = addressOf(resultAt(columns, i).enrichment);
      if (address !== null) addresses.add(address);
    }
    addrs = encodeAddresses(addresses);
  }
  const index = await results.putIndex(job.id, output.chunk, output.meta.run, {
    rows: [columns === old ? stored : encodeColumns(columns)],
    top: [await read("top")],
    tail: [await readIf("tail") ?? new Uint8Array(0)],
    nets: [await read("nets")],
    addrs: [addrs],
  });
  await results.chunks.setMeta(job.id, output.chunk, {
    ...output.meta,
    index,
  });
}

/** Rewrites every chunk stored a blob per section (see above), once. */
export async function migrateParts(
  store: JobStore,
  results: JobResults,
): Promise<void> {
  const { blobs } = results;
  if (await blobs.head(FORMAT_KEY)) return;
  const far = new Date(Date.now() + 1e12);
  for (const { key } of await blobs.listOlderThan(far, "results/")) {
    const found = OLD_BLOB.exec(key);
    if (!found) continue;
    const [jobId, chunk] = [Number(found[1]), Number(found[2])];
    const unindexed = async () =>
      (await results.chunks.outputs(jobId)).find((o) =>
        o.chunk === chunk && !o.meta.index
      );
    const output = await unindexed();
    const job = output && await store.getJob(jobId);
    if (job) {
      // Another process may have indexed it and taken its blobs meanwhile.
      await indexChunk(results, job, output).catch(async (error) => {
        if (await unindexed()) throw error;
      });
    }
    for (const name of OLD_SECTIONS) {
      await blobs.delete(`results/${jobId}/${chunk}.${name}`);
    }
  }
  await blobs.put(
    FORMAT_KEY,
    ReadableStream.from([encoder.encode(FORMAT)]),
  );
}
