// Processes one job from its last checkpoint to the end. Runs inside a job
// worker; kept free of Worker APIs so it can be tested directly.
import { join } from "node:path";
import { readCsvBatches } from "../csv/csv_rows.ts";
import { AddressSlots } from "../enrichment/address_slots.ts";
import type { Engine } from "../enrichment/engine.ts";
import { ipv4ToNumber, parseIp } from "../enrichment/ip_input.ts";
import { registrableDomain } from "../enrichment/reverse_dns.ts";
import {
  type BatchWriter,
  CheckpointBuilder,
  DirectWriter,
} from "./result_writer.ts";
import type { JobRecord, Store } from "../storage/store.ts";

export interface ProcessContext {
  store: Store;
  engine: Engine;
  uploadsDir: string;
  jobId: number;
  /** Rows per committed checkpoint (<= 100). */
  checkpointRows: number;
  /** True once the job was cancelled; checked between batches. */
  cancelled(): boolean;
  /** Called after every commit with the job as stored. */
  onProgress(job: JobRecord): void;
  /** Where checkpoints are committed (default: `store`, in this thread). */
  writer?: BatchWriter;
}

export const FILE_GONE =
  "The uploaded file is no longer available; upload it again";

// Rows in flight at most: enough to keep reverse-DNS lookups running in
// parallel across rows while earlier rows are committed.
const WINDOW_ROWS = 2000;
// Distinct addresses remembered per job (some 24 bytes each); beyond this
// the numbering starts over, and an address seen again is looked up again.
const ADDRESS_LIMIT = 2_000_000;
// Checkpoints handed to the writer and not yet committed, at most.
const WRITER_BACKLOG = 16;

type Named = { hostname: string | null; domain: string | null };
const NO_NAME: Named = { hostname: null, domain: null };

/** One row on its way to a checkpoint. */
type Entry = {
  rowIndex: number;
  row: string[];
  /** The address as parsed. */
  ip: string;
  /** Numbers of its place and organisation (CheckpointBuilder). */
  place: number;
  network: number;
  /** Why the address failed (then no place or organisation). */
  error: string | null;
  /** Host name and domain, when the job asks for them. */
  named: Named | Promise<Named> | null;
};

function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

export type ProcessOutcome = "completed" | "cancelled" | "lost";

export async function processJob(ctx: ProcessContext): Promise<ProcessOutcome> {
  const { store, engine, jobId } = ctx;
  const job = store.getJob(jobId);
  if (!job || job.status !== "processing") return "lost";
  const path = join(ctx.uploadsDir, job.fileName);
  try {
    await Deno.stat(path);
  } catch {
    store.setStatus(jobId, "failed", ["processing"], FILE_GONE);
    return "lost";
  }
  let processed = job.processedIPs;
  const { options } = job;
  const writer = ctx.writer ?? new DirectWriter(store);
  writer.begin({
    jobId,
    options,
    counters: {
      processed: job.processedIPs,
      successful: job.successfulIPs,
      failed: job.failedIPs,
      filtered: job.filteredIPs,
    },
  });
  const checkpoint = new CheckpointBuilder(jobId);
  // Each distinct address is looked up once: its number, then the numbers
  // of its place and organisation (8 bytes an address: a million rows have
  // some 500,000 addresses, and objects per address were most of the job's
  // heap), and its host name.
  const slots = new AddressSlots();
  let placeOf = new Int32Array(1024);
  let networkOf = new Int32Array(1024);
  let named: (Named | Promise<Named>)[] = [];
  const lookUpName = (ip: string): Promise<Named> =>
    engine.dns.lookup(ip).then((hostname) => ({
      hostname,
      domain: registrableDomain(hostname),
    }));
  const entryFor = (rowIndex: number, row: string[]): Entry => {
    const parsed = parseIp(row[job.ipColumnIndex] ?? "");
    if (!parsed.ok) {
      return {
        rowIndex,
        row,
        ip: parsed.ip,
        place: -1,
        network: -1,
        error: parsed.error,
        named: null,
      };
    }
    const v4 = parsed.version === 4 ? ipv4ToNumber(parsed.ip) : -1;
    let slot = v4 >= 0 ? slots.getV4(v4) : slots.get(parsed.ip);
    if (slot < 0) {
      if (slots.size >= ADDRESS_LIMIT) {
        slots.clear();
        named = [];
      }
      slot = v4 >= 0 ? slots.addV4(v4) : slots.add(parsed.ip);
      if (slot === placeOf.length) {
        placeOf = grow(placeOf);
        networkOf = grow(networkOf);
      }
      const { place, network } = engine.locate(
        parsed.ip,
        parsed.version,
        options,
      );
      placeOf[slot] = checkpoint.placeId(place);
      networkOf[slot] = checkpoint.networkId(network);
      if (options.domain) {
        const pending = lookUpName(parsed.ip);
        const list = named; // a fresh list after a start-over
        list.push(pending);
        pending.then((value) => list[slot] = value);
      }
    }
    return {
      rowIndex,
      row,
      ip: parsed.ip,
      place: placeOf[slot],
      network: networkOf[slot],
      error: null,
      named: options.domain ? named[slot] : null,
    };
  };
  const addRow = (entry: Entry): void => {
    processed++;
    if (entry.error !== null) {
      checkpoint.addFailed(entry.rowIndex, entry.row, entry.ip, entry.error);
      return;
    }
    const { hostname, domain } = (entry.named as Named | null) ?? NO_NAME;
    checkpoint.add(
      entry.rowIndex,
      entry.row,
      entry.ip,
      entry.place,
      entry.network,
      hostname,
      domain,
    );
  };

  // Rows are enriched as they are read (reverse DNS runs for many rows at
  // once) and committed in order, a checkpoint of `checkpointRows` at a time,
  // as soon as every row of the batch has its answer.
  const queue: Entry[] = [];
  let head = 0;
  const commitReady = async (wait: boolean, final = false) => {
    while (queue.length - head >= (final ? 1 : ctx.checkpointRows)) {
      const batch = queue.slice(head, head + ctx.checkpointRows);
      if (batch.some((entry) => entry.named instanceof Promise)) {
        if (!wait) return;
        await Promise.all(batch.map(async (entry) => {
          entry.named = await entry.named;
        }));
      }
      for (const entry of batch) addRow(entry);
      writer.write(checkpoint.take(), ctx.onProgress);
      head += batch.length;
      if (writer.backlog > WRITER_BACKLOG) {
        await writer.below(WRITER_BACKLOG / 2);
      }
      if (ctx.cancelled()) return;
    }
    // Let committed rows go at once (young objects are cheap to collect;
    // rows kept around were promoted and grew the heap).
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    } else if (head > 4096) {
      queue.splice(0, head);
      head = 0;
    }
  };

  let rowIndex = -1; // the header row is -1
  // Rows arrive a file chunk at a time: no promise per row.
  for await (const rows of readCsvBatches(path, job.delimiter)) {
    for (const row of rows) {
      rowIndex++;
      if (rowIndex === 0) continue; // header
      const dataIndex = rowIndex - 1;
      if (dataIndex < job.processedIPs) continue; // done before a restart
      const entry = entryFor(dataIndex, row);
      queue.push(entry);
      if (queue.length - head >= ctx.checkpointRows) {
        // Wait for answers only when too many rows are in flight.
        await commitReady(queue.length - head >= WINDOW_ROWS);
        if (ctx.cancelled()) {
          await writer.below(0);
          return "cancelled";
        }
      }
    }
  }
  await commitReady(true, true);
  // Every checkpoint is committed before the job ends, whatever the ending.
  await writer.below(0);
  if (ctx.cancelled()) return "cancelled";
  if (processed !== job.totalIPs) store.setTotal(jobId, processed);
  store.setStatus(jobId, "completed", ["processing"]);
  ctx.onProgress(store.getJob(jobId)!);
  return "completed";
}
