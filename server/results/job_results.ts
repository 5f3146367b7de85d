// A job's results, stored once, in the blob store (the data directory, or S3
// when several machines share the work), two blobs per chunk as Spark and
// Hadoop write theirs: `results/{job}/{chunk}-{run}.csv`, the kept rows as
// the download's lines, and `.idx`, the chunk's index (SECTIONS: its rows
// as columns, its counts by key, its distinct addresses). The database keeps,
// with each chunk, its counts by kind, the run that stored its parts and
// where its index's sections end (chunk_output.ts ChunkMeta). Everything a
// user reads of a job comes from these, the same in both modes: the download
// is the header and the parts one after another; Excel, live rows and preview
// pages decode the chunks they need; the summary adds up the chunks' counts as
// they are done (once for a completed job, kept as `summary.json`); a text
// search scans each chunk's search counts. Reads see the chunks whose parts
// are stored: every chunk of a completed job, the finished ones of a running,
// failed or cancelled one.
import type { JobSummary } from "../../shared/summary.ts";
import { SUMMARY_TOP_N } from "../../shared/summary.ts";
import type { BlobStore } from "../blobs/blob_store.ts";
import { csvHeader } from "./output_row.ts";
import type {
  ChunkOutputRecord,
  ChunkProgressStore,
} from "../storage/chunk_progress.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import { COUNT_CAP, type PreviewFilter } from "../storage/preview_filters.ts";
import type { StoredResult } from "../storage/result_rows.ts";
import { summaryFromCounts } from "./summary_counts.ts";
import {
  type ChunkMeta,
  type ChunkParts,
  type KeyCount,
  parseKindKey,
  releaseParts,
  TOP_DIMS,
  type TopDim,
} from "./chunk_output.ts";
import {
  decodeColumns,
  encodeColumns,
  type GroupFacts,
  isFiltered,
  resultAt,
  type ResultColumns,
  rowTest,
} from "./result_columns.ts";
import {
  type StoredTop,
  storedTops,
  type TopCount,
  TopMerge,
} from "./top_counts.ts";
import {
  countMatches,
  decodeSearchCounts,
  encodeSearchCounts,
} from "./search_counts.ts";
import { countDistinct } from "./distinct_addresses.ts";
import { release } from "../typed_arrays.ts";

const PAGE_ROWS = 2000;

export interface PreviewRows {
  rows: StoredResult[];
  /** Rows matching the filter, for the page count. */
  total: number;
  /** True when a text search stopped counting at COUNT_CAP matches. */
  totalAtLeast: boolean;
}
/** Chunks' parts read ahead of the one a search or a summary is at. */
const READ_AHEAD = 4;
/** Decoded chunks kept for the next page (some MB each). */
const CACHED_CHUNKS = 2;

/**
 * A chunk's blob, named by the run that stored it (ChunkMeta `run`), so a
 * run whose commit is refused (another run took the chunk) never replaces
 * the committed run's; parts stored before runs named them have none.
 */
export const partKey = (
  jobId: number,
  chunk: number,
  run: string | undefined,
  kind: "csv" | "idx",
) => `results/${jobId}/${chunk}${run ? `-${run}` : ""}.${kind}`;

/**
 * A chunk's index: its sections one after another in its `.idx`, where each
 * ends kept in its ChunkMeta (`index`), so a reader takes one range of one
 * blob. `rows`, every row as columns (result_columns.ts); `top` and `tail`,
 * its counts by key for the summary (top_counts.ts); `nets`, for searches
 * (search_counts.ts); `addrs`, its distinct addresses (distinct_addresses.ts).
 */
export const SECTIONS = ["rows", "top", "tail", "nets", "addrs"] as const;
export type Section = (typeof SECTIONS)[number];
const summaryKey = (jobId: number) => `results/${jobId}/summary.json`;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Each item with its blob, the next READ_AHEAD read while one is used. */
async function* readAhead<T>(
  items: T[],
  read: (item: T) => Promise<Uint8Array>,
): AsyncGenerator<[T, Uint8Array]> {
  const start = (item: T) => {
    const bytes = read(item);
    bytes.catch(() => {}); // awaited below, or dropped after a failure
    return bytes;
  };
  const ahead = items.slice(0, READ_AHEAD).map(start);
  for (let i = 0; i < items.length; i++) {
    const bytes = await ahead.shift()!;
    if (i + READ_AHEAD < items.length) ahead.push(start(items[i + READ_AHEAD]));
    yield [items[i], bytes];
  }
}

/** What a preview's filter tests of a row. */
type FilterFacts = Pick<
  GroupFacts,
  "success" | "ispFiltered" | "network_type" | "company" | "asn"
>;

/** Whether a row's fields match a preview filter. */
function matches(
  filter: PreviewFilter,
  { success, ispFiltered: filtered, network_type: type, company, asn }:
    FilterFacts,
): boolean {
  if (filter.status === "failed" && success) return false;
  if (
    filter.status && filter.status !== "failed" &&
    filtered !== (filter.status === "filtered")
  ) return false;
  if (filter.networkType === "unknown" && (!success || type !== null)) {
    return false;
  }
  if (
    filter.networkType && filter.networkType !== "unknown" &&
    type !== filter.networkType
  ) return false;
  if (filter.text) {
    // Contains, ignoring case, as the search box promises.
    const text = filter.text.toLowerCase();
    return !!company?.toLowerCase().includes(text) ||
      !!asn?.toLowerCase().includes(text);
  }
  return true;
}

/** What a filter sees of rows known by their kind alone (no names). */
function kindFacts(
  success: boolean,
  filtered: boolean,
  type: string | null,
): FilterFacts {
  return {
    success,
    ispFiltered: filtered,
    network_type: type,
    company: null,
    asn: null,
  };
}

/** Rows of a chunk matching a filter without text, from its counts. */
function matchingRows(meta: ChunkMeta, filter: PreviewFilter): number {
  let n = 0;
  for (const [key, , count] of meta.kinds) {
    const [success, filtered, type] = parseKindKey(key);
    if (matches(filter, kindFacts(success === 1, filtered === 1, type))) {
      n += count;
    }
  }
  return n;
}

/**
 * A job's summary counts, added up chunk by chunk: a running job's grow as
 * its chunks are done (a done chunk's counts never change). The top lists
 * add up the chunks' heads (top_counts.ts); `readTail` reads the bytes of
 * a chunk's `.tail` that hold a list's tail, when it is needed.
 */
export class TopCounts {
  #seen = new Set<string>();
  #kinds = new Map<string, TopCount>();
  #top = new Map<TopDim, TopMerge>(
    TOP_DIMS.map((dim) => [dim, new TopMerge()]),
  );
  #tops: Map<TopDim, TopCount[]> | null = null;

  constructor(readonly jobId: number) {}

  has(id: string): boolean {
    return this.#seen.has(id);
  }

  add(
    id: string,
    meta: ChunkMeta,
    top: StoredTop,
    readTail: (at: [number, number]) => Promise<string>,
  ): void {
    this.#seen.add(id);
    this.#tops = null;
    for (const [key, code, n] of meta.kinds) {
      const kind = `${key}\u0000${code}`;
      const count = this.#kinds.get(kind);
      if (count) count.n += n;
      else this.#kinds.set(kind, { key, code, n });
    }
    for (const dim of TOP_DIMS) {
      const { head, tailMax, tailAt } = top[dim] ?? { head: [], tailMax: 0 };
      this.#top.get(dim)!.add(
        { head, tailMax },
        tailAt ? () => readTail(tailAt) : () => Promise.resolve(""),
      );
    }
  }

  /**
   * The summary of the chunks added, and of `running`: the rows by kind of
   * running chunks (their top lists are counted once they are done).
   */
  async summary(running: KeyCount[] = []): Promise<JobSummary> {
    if (!this.#tops) {
      const tops = new Map<TopDim, TopCount[]>();
      for (const dim of TOP_DIMS) {
        tops.set(dim, await this.#top.get(dim)!.top(SUMMARY_TOP_N));
      }
      this.#tops = tops;
    }
    const tops = this.#tops;
    return summaryFromCounts(
      this.jobId,
      [
        ...this.#kinds.values(),
        ...running.map(([key, code, n]) => ({ key, code, n })),
      ],
      (dim) => tops.get(dim)!,
    );
  }
}

export class JobResults {
  #columns = new Map<string, Promise<ResultColumns>>();
  /** Running jobs' summary counts so far (a few jobs). */
  #summaries = new Map<number, TopCounts>();
  /** Summaries being added up on another thread of this process, by job. */
  #adding = new Map<number, Promise<void>>();

  constructor(
    readonly blobs: BlobStore,
    readonly chunks: ChunkProgressStore,
  ) {}

  /**
   * Stores a run's parts of a chunk (before its commit says they are
   * there) and frees their buffers (nothing reads them after); its meta to
   * commit, with the run and where its index's sections end.
   */
  async putParts(
    jobId: number,
    chunk: number,
    run: string,
    parts: ChunkParts,
  ): Promise<ChunkMeta> {
    await this.blobs.put(
      partKey(jobId, chunk, run, "csv"),
      ReadableStream.from(parts.kept),
    );
    const { top, tails } = storedTops(parts.counts.top);
    const rows = encodeColumns(parts.columns);
    const index = await this.putIndex(jobId, chunk, run, {
      rows: [rows],
      top: [encoder.encode(JSON.stringify(top))],
      tail: tails,
      nets: [encodeSearchCounts(parts.counts.search)],
      addrs: [parts.addresses],
    });
    release(rows);
    releaseParts(parts);
    return { ...parts.meta, run, index };
  }

  /** Removes a run's parts of a chunk (its commit refused). */
  async deleteParts(jobId: number, chunk: number, run: string): Promise<void> {
    await this.blobs.delete(partKey(jobId, chunk, run, "csv"));
    await this.blobs.delete(partKey(jobId, chunk, run, "idx"));
  }

  /** Stores a chunk's index; where each of its sections ends. */
  async putIndex(
    jobId: number,
    chunk: number,
    run: string | undefined,
    sections: Record<Section, Uint8Array[]>,
  ): Promise<number[]> {
    const index: number[] = [];
    let end = 0;
    for (const name of SECTIONS) {
      for (const piece of sections[name]) end += piece.length;
      index.push(end);
    }
    await this.blobs.put(
      partKey(jobId, chunk, run, "idx"),
      ReadableStream.from(SECTIONS.flatMap((name) => sections[name])),
    );
    return index;
  }

  /** A section of a chunk's index, or bytes [from, to) of it. */
  #section(
    jobId: number,
    output: ChunkOutputRecord,
    name: Section,
    within?: [number, number],
  ): Promise<Uint8Array> {
    const index = output.meta.index!;
    const at = SECTIONS.indexOf(name);
    const base = at === 0 ? 0 : index[at - 1];
    const start = base + (within?.[0] ?? 0);
    const end = within ? base + within[1] : index[at];
    if (end === start) return Promise.resolve(new Uint8Array(0));
    const key = partKey(jobId, output.chunk, output.meta.run, "idx");
    return this.blobs.bytes(key, { start, end });
  }

  /** Distinct addresses over a job's chunks. */
  async #distinctAddresses(
    jobId: number,
    outputs: ChunkOutputRecord[],
  ): Promise<number> {
    const lists: Uint8Array[] = [];
    for await (
      const [, bytes] of readAhead(
        outputs,
        (o) => this.#section(jobId, o, "addrs"),
      )
    ) lists.push(bytes);
    return countDistinct(lists);
  }

  /**
   * Each output's rows matching a filter: from the counts by kind in the
   * database, or for a text search from each chunk's search counts.
   */
  async #matching(
    job: JobRecord,
    outputs: ChunkOutputRecord[],
    filter: PreviewFilter,
  ): Promise<number[]> {
    const { text, ...rest } = filter;
    if (!text) return outputs.map((o) => matchingRows(o.meta, filter));
    const nets = readAhead(
      outputs,
      (output) => this.#section(job.id, output, "nets"),
    );
    const counts: number[] = [];
    for await (const [, bytes] of nets) {
      counts.push(
        countMatches(
          decodeSearchCounts(bytes),
          text,
          (type, filtered) => matches(rest, kindFacts(true, filtered, type)),
        ),
      );
    }
    return counts;
  }

  /** Removes a job's parts. */
  async deleteJob(jobId: number): Promise<void> {
    const far = new Date(Date.now() + 1e12);
    for (
      const blob of await this.blobs.listOlderThan(far, `results/${jobId}/`)
    ) {
      await this.blobs.delete(blob.key);
    }
  }

  /** A chunk's rows, decoded (the last few are kept for the next page). */
  #load(jobId: number, output: ChunkOutputRecord): Promise<ResultColumns> {
    const key = `${jobId}/${output.chunk}/${output.run}`;
    let columns = this.#columns.get(key);
    if (columns) {
      this.#columns.delete(key);
    } else {
      columns = this.#section(jobId, output, "rows").then(decodeColumns);
      columns.catch(() => this.#columns.delete(key));
    }
    this.#columns.set(key, columns);
    while (this.#columns.size > CACHED_CHUNKS) {
      this.#columns.delete(this.#columns.keys().next().value!);
    }
    return columns;
  }

  /** The download: its header, then every stored chunk's kept rows. */
  async csvBody(job: JobRecord): Promise<ReadableStream<Uint8Array>> {
    const outputs = (await this.chunks.outputs(job.id)).filter((o) =>
      o.keptBytes > 0
    );
    const header = csvHeader(job);
    const blobs = this.blobs;
    // Cancelling the download cancels the part being read.
    async function* body() {
      yield header;
      for (const output of outputs) {
        yield* await blobs.get(
          partKey(job.id, output.chunk, output.meta.run, "csv"),
        );
      }
    }
    return ReadableStream.from(body());
  }

  /** Pages of kept rows, in input order (the Excel export). */
  async *keptPages(job: JobRecord): AsyncGenerator<StoredResult[]> {
    for (const output of await this.chunks.outputs(job.id)) {
      if (output.meta.keptRows === 0) continue;
      const columns = await this.#load(job.id, output);
      let page: StoredResult[] = [];
      for (let i = 0; i < columns.count; i++) {
        if (isFiltered(columns, i)) continue;
        page.push(resultAt(columns, i));
        if (page.length === PAGE_ROWS) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    }
  }

  /** Stored rows with rowIndex in [from, to), in order (the live feed). */
  async between(
    job: JobRecord,
    from: number,
    to: number,
  ): Promise<StoredResult[]> {
    const rows: StoredResult[] = [];
    for (const output of await this.chunks.outputs(job.id)) {
      const end = output.firstRow + output.meta.rows;
      if (end <= from || output.firstRow >= to) continue;
      const columns = await this.#load(job.id, output);
      for (let i = 0; i < columns.count; i++) {
        const index = columns.rowIndex[i];
        if (index >= from && index < to) rows.push(resultAt(columns, i));
      }
    }
    return rows;
  }

  /** Rows stored: the end of the stored rows for the live feed. */
  async storedEnd(job: JobRecord): Promise<number> {
    const outputs = await this.chunks.outputs(job.id);
    return outputs.reduce(
      (end, o) => Math.max(end, o.firstRow + o.meta.rows),
      0,
    );
  }

  /**
   * Adds up a job's summary as it completes, off the HTTP thread (the job
   * thread or worker that completed it, or a thread of its own: see
   * thread_pool.ts).
   */
  async prepare(job: JobRecord): Promise<void> {
    await this.summary(job);
    this.#summaries.delete(job.id);
  }

  /**
   * A completed job's summary is being added up on another thread of this
   * process until `done` (thread_pool.ts): one asked for meanwhile waits for
   * it rather than being added up a second time here.
   */
  addingSummary(jobId: number, done: Promise<void>): void {
    this.#adding.set(jobId, done);
    const forget = () => this.#adding.delete(jobId);
    done.then(forget, forget);
  }

  /**
   * The job's summary over its stored chunks, their counts added as they
   * are done; a completed job's is added up once and kept beside its parts.
   */
  async summary(job: JobRecord): Promise<JobSummary> {
    const completed = job.status === "completed";
    if (completed) {
      await this.#adding.get(job.id)?.catch(() => {});
      const kept = await this.blobs.bytes(summaryKey(job.id))
        .catch(() => null);
      if (kept) return JSON.parse(decoder.decode(kept));
    }
    let counts = this.#summaries.get(job.id);
    if (counts) this.#summaries.delete(job.id);
    else counts = new TopCounts(job.id);
    // Running chunks read first: one done meanwhile is among the outputs,
    // and counted there only.
    const running = completed ? [] : await this.chunks.runningKinds(job.id);
    const outputs = await this.chunks.outputs(job.id);
    const done = new Set(outputs.map((output) => output.chunk));
    const added = outputs.filter((output) =>
      !counts.has(`${output.chunk}/${output.run}`)
    );
    const tops = readAhead(
      added,
      (o) => this.#section(job.id, o, "top"),
    );
    for await (const [output, bytes] of tops) {
      counts.add(
        `${output.chunk}/${output.run}`,
        output.meta,
        JSON.parse(decoder.decode(bytes)) as StoredTop,
        (at) =>
          this.#section(job.id, output, "tail", at).then((b) =>
            decoder.decode(b)
          ),
      );
    }
    const summary = await counts.summary(
      running.filter((r) => !done.has(r.chunk)).flatMap((r) => r.kinds),
    );
    if (completed) {
      summary.distinctAddresses = await this.#distinctAddresses(
        job.id,
        outputs,
      );
      await this.blobs.put(
        summaryKey(job.id),
        ReadableStream.from([encoder.encode(JSON.stringify(summary))]),
      );
      return summary;
    }
    this.#summaries.set(job.id, counts);
    while (this.#summaries.size > 2) {
      this.#summaries.delete(this.#summaries.keys().next().value!);
    }
    return summary;
  }

  /**
   * One page (1-based) of rows matching a filter, in input order, with how
   * many match (a text search counts up to COUNT_CAP). Counts come from the
   * chunks' counts; only the chunks holding the page are read.
   */
  async preview(
    job: JobRecord,
    filter: PreviewFilter,
    page: number,
    pageSize: number,
  ): Promise<PreviewRows> {
    const outputs = await this.chunks.outputs(job.id);
    const counts = await this.#matching(job, outputs, filter);
    let total = counts.reduce((a, b) => a + b, 0);
    let totalAtLeast = false;
    if (filter.text && total > COUNT_CAP) {
      total = COUNT_CAP;
      totalAtLeast = true;
    }
    let skip = (Math.max(1, page) - 1) * pageSize;
    const rows: StoredResult[] = [];
    for (let c = 0; c < outputs.length && rows.length < pageSize; c++) {
      if (skip >= counts[c]) {
        skip -= counts[c];
        continue;
      }
      const columns = await this.#load(job.id, outputs[c]);
      const wanted = rowTest(columns, (facts) => matches(filter, facts));
      for (let i = 0; i < columns.count && rows.length < pageSize; i++) {
        if (!wanted(i)) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
        rows.push(resultAt(columns, i));
      }
      skip = 0;
    }
    return { rows, total, totalAtLeast };
  }
}
