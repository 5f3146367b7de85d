// A chunk's output, this checkout's against another's, on the rows of a
// real job: runs the first chunks of the seeded file's job in this thread
// (thread_job.ts), keeps every row and key handed to the chunk's output
// (a row of a known key by its own values: the other checkout must take
// those, as addKnown), then replays them through both ChunkOutputs in turn
// and prints the CPU
// time of this thread per row (adding the rows and finishing the chunks),
// least and median. It checks first that both give the same parts.
//   deno run -A bench/chunk_output_ab.ts /path/to/other/checkout [rows] [chunks] [rounds]
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import {
  ChunkOutput,
  type ChunkParts,
} from "../server/results/chunk_output.ts";
import type { JobRecord } from "../server/storage/job_rows.ts";
import type { OutputRow } from "../server/storage/result_rows.ts";
import type { Enrichment } from "../server/enrichment/types.ts";
import { threadJob } from "./thread_job.ts";

type Output = typeof ChunkOutput;
const [other, rowsArg, chunksArg, roundsArg] = Deno.args;
if (!other) throw new Error("give the other checkout's path");
const OUT = new URL("./out", import.meta.url).pathname;
await Deno.mkdir(OUT, { recursive: true });

/** A checkout's ChunkOutput, from a copy of its modules. */
async function outputOf(checkout: string): Promise<Output> {
  const copy = await Deno.makeTempDir({ dir: OUT, prefix: "ab-code-" });
  for (const dir of ["server", "shared"]) {
    await new Deno.Command("cp", { args: ["-r", join(checkout, dir), copy] })
      .output();
  }
  const path = join(copy, "server/results/chunk_output.ts");
  const made = (await import(path) as { ChunkOutput: Output }).ChunkOutput;
  await Deno.remove(copy, { recursive: true });
  return made;
}
const ThisOutput = await outputOf(new URL("..", import.meta.url).pathname);
const OtherOutput = await outputOf(other);

/**
 * Each chunk's rows (copied: the pipeline reuses its row objects), `known`
 * when added by its own values.
 */
const chunks: { row: OutputRow; key: number; known: boolean }[][] = [];
const add = ChunkOutput.prototype.addRow;
const addKnown = ChunkOutput.prototype.addKnown;
const finish = ChunkOutput.prototype.finish;
function keep(row: OutputRow, key: number, known: boolean) {
  const { buf, start, contentEnd, end, fields } = row.line;
  (chunks.at(-1) ?? chunks[chunks.push([]) - 1]).push({
    row: {
      rowIndex: row.rowIndex,
      line: {
        buf: buf.slice(start, end),
        start: 0,
        contentEnd: contentEnd - start,
        end: end - start,
        fields,
      },
      enrichment: { ...row.enrichment },
    },
    key,
    known,
  });
}
ChunkOutput.prototype.addRow = function (row, key) {
  keep(row, key, false);
  add.call(this, row, key);
};
ChunkOutput.prototype.addKnown = function (rowIndex, line, own, key) {
  const flags = addKnown.call(this, rowIndex, line, own, key);
  if (flags >= 0) {
    keep({ rowIndex, line, enrichment: own as Enrichment }, key, true);
  }
  return flags;
};
ChunkOutput.prototype.finish = function () {
  chunks.push([]);
  return finish.call(this);
};
const run = await threadJob(Number(rowsArg ?? 1_000_000), OUT);
let job: JobRecord;
try {
  for (const chunk of run.chunks.slice(0, Number(chunksArg ?? 6))) {
    await run.run(chunk);
  }
  job = run.store.getJob(run.jobId)!;
} finally {
  await run.remove();
}
ChunkOutput.prototype.addRow = add;
ChunkOutput.prototype.addKnown = addKnown;
ChunkOutput.prototype.finish = finish;
chunks.pop();
const total = chunks.reduce((n, rows) => n + rows.length, 0);

/** CPU time of this thread, ms (Linux). */
function threadCpuMs(): number {
  const stat = Deno.readTextFileSync("/proc/thread-self/stat");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function replay(Made: Output): ChunkParts[] {
  return chunks.map((rows) => {
    const output = new Made(job);
    for (const { row, key, known } of rows) {
      if (known) output.addKnown(row.rowIndex, row.line, row.enrichment, key);
      else output.addRow(row, key);
    }
    return output.finish();
  });
}

/** Parts compared whole, but for the order of their top lists and nets. */
function comparable(parts: ChunkParts[]): unknown {
  return parts.map(({ counts, ...rest }) => ({
    ...rest,
    kept: rest.kept.flatMap((piece) => [...piece]),
    top: Object.values(counts.top).map(({ head, tail }) =>
      [...head, ...(tail ? JSON.parse(tail) : [])].map(String).sort()
    ),
    nets: counts.search.info.length,
  }));
}

const same = isDeepStrictEqual(
  comparable(replay(ThisOutput)),
  comparable(replay(OtherOutput)),
);
console.log(`${chunks.length} chunks, ${total} rows; same parts: ${same}`);
const cpu: Record<string, number[]> = { this: [], other: [] };
for (let round = 0; round < Number(roundsArg ?? 6); round++) {
  const order: [string, Output][] = [["this", ThisOutput], [
    "other",
    OtherOutput,
  ]];
  if (round % 2) order.reverse();
  for (const [name, Made] of order) {
    const before = threadCpuMs();
    replay(Made);
    cpu[name].push(threadCpuMs() - before);
  }
}
// The least is the one least disturbed by other processes.
const perRow = (list: number[], at: (sorted: number[]) => number) =>
  (at(list.sort((a, b) => a - b)) * 1000 / total).toFixed(2);
for (const name of ["this", "other"]) {
  console.log(
    `${name}: CPU a row ${perRow(cpu[name], (l) => l[0])} µs least, ${
      perRow(cpu[name], (l) => l[l.length >> 1])
    } µs median of ${cpu[name].length}`,
  );
}
