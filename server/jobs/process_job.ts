// Processes one job from its last checkpoint to the end. Runs inside a job
// worker; kept free of Worker APIs so it can be tested directly. (A little
// over 300 lines: one run's steps share its state, so they stay one class.)
import { join } from "node:path";
import type { Failure } from "../../shared/failures.ts";
import { readCsvBatches } from "../csv/csv_rows.ts";
import { AddressSlots } from "../enrichment/address_slots.ts";
import { type KeepList, parseKeepList } from "../classification/overrides.ts";
import type { HostName } from "../enrichment/compose.ts";
import type { Engine } from "../enrichment/engine.ts";
import { ipv4ToNumber, parseIp } from "../enrichment/ip_input.ts";
import { registrableDomain } from "../enrichment/reverse_dns.ts";
import type { JobRecord, Store } from "../storage/store.ts";
import type { BatchWriter } from "./batch_writer.ts";
import { CheckpointBuilder } from "./checkpoint_codec.ts";
import { DirectWriter } from "./direct_writer.ts";

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

const NO_HOST_NAME: HostName = { hostname: null, domain: null };

/** One row on its way to a checkpoint. */
type PendingRow = {
  rowIndex: number;
  row: string[];
  /** The address as parsed. */
  ip: string;
  /** Numbers of its place and organisation (CheckpointBuilder). */
  place: number;
  network: number;
  /** Why the address failed (then no place or organisation). */
  failure: Failure | null;
  /** Host name and domain, when the job asks for them. */
  hostName: HostName | Promise<HostName> | null;
};

function doubled(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

export type ProcessOutcome = "completed" | "cancelled" | "lost";

export function processJob(ctx: ProcessContext): Promise<ProcessOutcome> {
  return new JobProcess(ctx).run();
}

/** One run of a job; its steps are the methods below, in order. */
class JobProcess {
  readonly #ctx: ProcessContext;
  #job!: JobRecord;
  #writer!: BatchWriter;
  #checkpoint: CheckpointBuilder;
  /** The job's "always keep" AS numbers and CIDRs, or null. */
  #keep: KeepList | null = null;
  #processed = 0;
  // Each distinct address is looked up once: its number, then the numbers
  // of its place and organisation (8 bytes an address: a million rows have
  // some 500,000 addresses, and an object per address would be most of the
  // job's heap), and its host name.
  #slots = new AddressSlots();
  #placeOfSlot = new Int32Array(1024);
  #networkOfSlot = new Int32Array(1024);
  #hostNameOfSlot: (HostName | Promise<HostName>)[] = [];
  // Rows read and not yet committed, from `#head` on.
  #queue: PendingRow[] = [];
  #head = 0;

  constructor(ctx: ProcessContext) {
    this.#ctx = ctx;
    this.#checkpoint = new CheckpointBuilder(ctx.jobId);
  }

  async run(): Promise<ProcessOutcome> {
    const path = await this.#openInput();
    if (path === null) return "lost";
    this.#beginWriter();
    if (!await this.#readRows(path)) return "cancelled";
    return await this.#finish();
  }

  /** The job's file, or null when the job or its file is gone. */
  async #openInput(): Promise<string | null> {
    const { store, jobId } = this.#ctx;
    const job = store.getJob(jobId);
    if (!job || job.status !== "processing") return null;
    const path = join(this.#ctx.uploadsDir, job.fileName);
    try {
      await Deno.stat(path);
    } catch {
      store.setStatus(jobId, "failed", ["processing"], FILE_GONE);
      return null;
    }
    this.#job = job;
    this.#keep = job.alwaysKeep ? parseKeepList(job.alwaysKeep) : null;
    this.#processed = job.processedIPs;
    return path;
  }

  #beginWriter(): void {
    const job = this.#job;
    this.#writer = this.#ctx.writer ?? new DirectWriter(this.#ctx.store);
    this.#writer.begin({
      jobId: job.id,
      options: job.options,
      counters: {
        processed: job.processedIPs,
        successful: job.successfulIPs,
        failed: job.failedIPs,
        filtered: job.filteredIPs,
      },
    });
  }

  /**
   * Reads the rows after the last checkpoint, looking each up as it is read
   * (reverse DNS runs for many rows at once). False when cancelled.
   */
  async #readRows(path: string): Promise<boolean> {
    const job = this.#job;
    const { checkpointRows } = this.#ctx;
    let rowIndex = -1; // the header row is -1
    // Rows arrive a file chunk at a time: no promise per row.
    for await (const rows of readCsvBatches(path, job.delimiter)) {
      for (const row of rows) {
        rowIndex++;
        if (rowIndex === 0) continue; // header
        const dataIndex = rowIndex - 1;
        if (dataIndex < job.processedIPs) continue; // done before a restart
        this.#queue.push(this.#lookUp(dataIndex, row));
        const waiting = this.#queue.length - this.#head;
        if (waiting >= checkpointRows) {
          // Wait for answers only when too many rows are in flight.
          await this.#commitReady(waiting >= WINDOW_ROWS);
          if (this.#ctx.cancelled()) {
            await this.#writer.waitForBacklogAtMost(0);
            return false;
          }
        }
      }
    }
    return true;
  }

  /** A row's address, parsed and looked up (its host name maybe pending). */
  #lookUp(rowIndex: number, row: string[]): PendingRow {
    const { options } = this.#job;
    const parsed = parseIp(row[this.#job.ipColumnIndex] ?? "");
    if (!parsed.ok) {
      const { ip, failure } = parsed;
      return {
        rowIndex,
        row,
        ip,
        place: -1,
        network: -1,
        failure,
        hostName: null,
      };
    }
    const slots = this.#slots;
    const v4 = parsed.version === 4 ? ipv4ToNumber(parsed.ip) : -1;
    let slot = v4 >= 0 ? slots.getV4(v4) : slots.get(parsed.ip);
    if (slot < 0) {
      if (slots.size >= ADDRESS_LIMIT) {
        slots.clear();
        this.#hostNameOfSlot = [];
      }
      slot = v4 >= 0 ? slots.addV4(v4) : slots.add(parsed.ip);
      if (slot === this.#placeOfSlot.length) {
        this.#placeOfSlot = doubled(this.#placeOfSlot);
        this.#networkOfSlot = doubled(this.#networkOfSlot);
      }
      const { place, network } = this.#ctx.engine.locate(
        parsed.ip,
        parsed.version,
        options,
      );
      this.#placeOfSlot[slot] = this.#checkpoint.placeId(place);
      this.#networkOfSlot[slot] = this.#checkpoint.networkId(network);
      if (options.domain) {
        const pending = this.#ctx.engine.dns.lookup(parsed.ip).then((
          hostname,
        ): HostName => ({ hostname, domain: registrableDomain(hostname) }));
        const list = this.#hostNameOfSlot; // a fresh list after a start-over
        list.push(pending);
        pending.then((value) => list[slot] = value);
      }
    }
    return {
      rowIndex,
      row,
      ip: parsed.ip,
      place: this.#placeOfSlot[slot],
      network: this.#networkOfSlot[slot],
      failure: null,
      hostName: options.domain ? this.#hostNameOfSlot[slot] : null,
    };
  }

  /**
   * Commits the queued rows in order, a checkpoint of `checkpointRows` at a
   * time, each as soon as every row in it has its answer (`wait`: wait for
   * the answers; `final`: commit a last, shorter checkpoint too).
   */
  async #commitReady(wait: boolean, final = false): Promise<void> {
    const { checkpointRows } = this.#ctx;
    const queue = this.#queue;
    while (queue.length - this.#head >= (final ? 1 : checkpointRows)) {
      const batch = queue.slice(this.#head, this.#head + checkpointRows);
      if (batch.some((pending) => pending.hostName instanceof Promise)) {
        if (!wait) return;
        await Promise.all(batch.map(async (pending) => {
          pending.hostName = await pending.hostName;
        }));
      }
      this.#commitCheckpoint(batch);
      this.#head += batch.length;
      if (this.#writer.backlog > WRITER_BACKLOG) {
        await this.#writer.waitForBacklogAtMost(WRITER_BACKLOG / 2);
      }
      if (this.#ctx.cancelled()) return;
    }
    // Let committed rows go at once: young objects are cheap to collect,
    // while rows kept around get promoted and grow the heap.
    if (this.#head === queue.length) {
      queue.length = 0;
      this.#head = 0;
    } else if (this.#head > 4096) {
      queue.splice(0, this.#head);
      this.#head = 0;
    }
  }

  /** Hands rows whose answers are all in to the writer as one checkpoint. */
  #commitCheckpoint(batch: PendingRow[]): void {
    const checkpoint = this.#checkpoint;
    const { engine } = this.#ctx;
    const keep = this.#keep;
    for (const pending of batch) {
      this.#processed++;
      if (pending.failure !== null) {
        checkpoint.addFailed(
          pending.rowIndex,
          pending.row,
          pending.ip,
          pending.failure,
        );
        continue;
      }
      const { hostname, domain } = (pending.hostName as HostName | null) ??
        NO_HOST_NAME;
      let network = pending.network;
      // The host name and the keep list may decide this address otherwise
      // than its network (a static business name inside an access network).
      if (network >= 0 && engine.classifier.needsAddress(hostname, keep)) {
        const base = checkpoint.network(network)!;
        const own = engine.networkFor(base, pending.ip, hostname, keep);
        network = checkpoint.networkId(own);
      }
      checkpoint.add(
        pending.rowIndex,
        pending.row,
        pending.ip,
        pending.place,
        network,
        hostname,
        domain,
      );
    }
    this.#writer.write(checkpoint.takeCheckpoint(), this.#ctx.onProgress);
  }

  /** Commits the last rows and marks the job completed. */
  async #finish(): Promise<ProcessOutcome> {
    const { store, jobId } = this.#ctx;
    await this.#commitReady(true, true);
    // Every checkpoint is committed before the job ends, whatever the ending.
    await this.#writer.waitForBacklogAtMost(0);
    if (this.#ctx.cancelled()) return "cancelled";
    if (this.#processed !== this.#job.totalIPs) {
      store.setTotal(jobId, this.#processed);
    }
    store.setStatus(jobId, "completed", ["processing"]);
    this.#ctx.onProgress(store.getJob(jobId)!);
    return "completed";
  }
}
