// Where a job's checkpoints go. Storing results was some 40% of a job's
// time in its worker; a ThreadedWriter commits them on a thread of their own
// while the job worker goes on reading and looking up rows. Each checkpoint
// is still one transaction with the job's counters (Store.commitBatch), the
// checkpoints are committed in order, and the job ends only after the last
// one is committed: the crash-resume guarantee is unchanged.
//
// A checkpoint travels compactly (copying values between threads was much
// of the job worker's time): each row is its fields, its address, and the
// numbers of its place and organisation; a place or organisation travels
// once per job, the first time a row refers to it. The writer's side builds
// the results from them (CheckpointReader).
// Types, NO_DATA and emptyEnrichment only: the writer's thread loads no
// enrichment code.
import type { Network } from "../enrichment/engine.ts";
import type { Place } from "../enrichment/geo_provider.ts";
import {
  emptyEnrichment,
  type Enrichment,
  type EnrichOptions,
  NO_DATA,
} from "../enrichment/types.ts";
import type {
  Counters,
  JobRecord,
  Store,
  StoredResult,
} from "../storage/store.ts";

export type FlatValue = string | number | boolean | null;

/** What a writer needs to know of a job before its first checkpoint. */
export interface JobStart {
  jobId: number;
  options: EnrichOptions;
  /** The job's counters at its last checkpoint. */
  counters: Counters;
}

export interface Checkpoint {
  jobId: number;
  /** New places, PLACE_WIDTH values each, numbered on from the last. */
  places: FlatValue[];
  /** New organisations, NETWORK_WIDTH values each, numbered on. */
  networks: FlatValue[];
  /** Per row: index, field count, fields, then ROW_TAIL values. */
  rows: FlatValue[];
}

const PLACE_WIDTH = 6;
const NETWORK_WIDTH = 4;
/** After a row's fields: ip, place, organisation, hostname, domain, error. */
const ROW_TAIL = 6;
/** A place or organisation number for "none". */
const NONE = -1;
/** The place number of a row whose address failed (invalid, private). */
const FAILED = -2;

/** Numbers the distinct values given to it, by identity. */
class Interned<T> {
  #ids = new Map<T, number>();
  #values: T[] = [];

  get size(): number {
    return this.#values.length;
  }

  id(value: T): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#values.length;
      this.#values.push(value);
      this.#ids.set(value, id);
    }
    return id;
  }

  get(id: number): T {
    return this.#values[id];
  }
}

/** The job worker's side: rows into checkpoints. */
export class CheckpointBuilder {
  /** Place numbers by Place.key: no place object is kept. */
  #placeIds = new Map<number, number>();
  #networks = new Interned<Network>();
  #newPlaces: FlatValue[] = [];
  #sentNetworks = 0;
  #rows: FlatValue[] = [];
  #count = 0;

  constructor(readonly jobId: number) {}

  /** Rows added since the last take. */
  get count(): number {
    return this.#count;
  }

  /** A number for a place (kept for the job), or NONE. */
  placeId(place: Place | null): number {
    if (!place) return NONE;
    let id = this.#placeIds.get(place.key);
    if (id === undefined) {
      id = this.#placeIds.size;
      this.#placeIds.set(place.key, id);
      this.#newPlaces.push(
        place.country,
        place.country_code,
        place.region,
        place.city,
        place.latitude,
        place.longitude,
      );
    }
    return id;
  }

  /** A number for an organisation (kept for the job), or NONE. */
  networkId(network: Network | null): number {
    return network ? this.#networks.id(network) : NONE;
  }

  /** A row whose address has a place and organisation number. */
  add(
    rowIndex: number,
    row: string[],
    ip: string,
    place: number,
    network: number,
    hostname: string | null,
    domain: string | null,
  ): void {
    this.#count++;
    const rows = this.#rows;
    rows.push(rowIndex, row.length);
    for (const field of row) rows.push(field);
    rows.push(ip, place, network, hostname, domain, null);
  }

  /** A row whose address failed, with the reason. */
  addFailed(rowIndex: number, row: string[], ip: string, error: string) {
    this.#count++;
    const rows = this.#rows;
    rows.push(rowIndex, row.length);
    for (const field of row) rows.push(field);
    rows.push(ip, FAILED, NONE, null, null, error);
  }

  /** The checkpoint of the rows added since the last take. */
  take(): Checkpoint {
    const places = this.#newPlaces;
    this.#newPlaces = [];
    const networks: FlatValue[] = [];
    for (; this.#sentNetworks < this.#networks.size; this.#sentNetworks++) {
      const n = this.#networks.get(this.#sentNetworks);
      networks.push(
        n.org,
        n.asnText,
        n.kind?.networkType ?? null,
        n.kind ? n.kind.consumer : null,
      );
    }
    const checkpoint = {
      jobId: this.jobId,
      places,
      networks,
      rows: this.#rows,
    };
    this.#rows = [];
    this.#count = 0;
    return checkpoint;
  }
}

/**
 * The writer's side: checkpoints into results and counters, the same as
 * Engine.compose and Engine.checkFound give (tests compare downloads).
 */
export class CheckpointReader {
  readonly counters: Counters;
  #places: FlatValue[] = [];
  #networks: FlatValue[] = [];

  constructor(readonly start: JobStart) {
    this.counters = { ...start.counters };
  }

  /** The checkpoint's results; `counters` then counts them too. */
  read(checkpoint: Checkpoint): StoredResult[] {
    for (const value of checkpoint.places) this.#places.push(value);
    for (const value of checkpoint.networks) this.#networks.push(value);
    const { options } = this.start;
    const counters = this.counters;
    const places = this.#places;
    const networks = this.#networks;
    const flat = checkpoint.rows;
    const results: StoredResult[] = [];
    for (let i = 0; i < flat.length;) {
      const rowIndex = flat[i++] as number;
      const width = flat[i++] as number;
      const original = flat.slice(i, i + width) as string[];
      i += width;
      const ip = flat[i] as string;
      const place = flat[i + 1] as number;
      const network = flat[i + 2] as number;
      const hostname = flat[i + 3] as string | null;
      const domain = flat[i + 4] as string | null;
      const error = flat[i + 5] as string | null;
      i += ROW_TAIL;
      const e = emptyEnrichment(ip);
      e.error = error;
      counters.processed++;
      if (place === FAILED) {
        counters.failed++;
        results.push({ rowIndex, original, enrichment: e });
        continue;
      }
      if (place !== NONE) {
        const at = place * PLACE_WIDTH;
        e.country = places[at] as string | null;
        e.country_code = places[at + 1] as string | null;
        e.region = places[at + 2] as string | null;
        e.city = places[at + 3] as string | null;
        e.latitude = places[at + 4] as number | null;
        e.longitude = places[at + 5] as number | null;
      }
      if (network !== NONE) {
        const at = network * NETWORK_WIDTH;
        const org = networks[at] as string;
        const networkType = networks[at + 2] as Enrichment["network_type"];
        const consumer = networks[at + 3] as boolean | null;
        // A classification (networkType) exists for every known network.
        e.ispFiltered = consumer ?? false;
        if (options.company && networkType !== null) {
          e.network_type = networkType;
          e.company = consumer ? null : org || null;
        }
        if (options.network) {
          e.isp = org || null;
          e.asn = networks[at + 1] as string;
        }
      }
      e.hostname = hostname;
      e.domain = domain;
      const found = e.country_code || e.city || e.hostname || e.company ||
        e.network_type || e.isp || e.asn;
      e.success = !!found;
      if (!found) e.error = NO_DATA;
      if (e.success) counters.successful++;
      else counters.failed++;
      if (e.ispFiltered) counters.filtered++;
      results.push({ rowIndex, original, enrichment: e });
    }
    return results;
  }
}

export interface BatchWriter {
  /** Starts a job's checkpoints (its counters as stored). */
  begin(start: JobStart): void;
  /**
   * Queues one checkpoint. `committed` is called with the job as stored
   * once it is committed.
   */
  write(checkpoint: Checkpoint, committed: (job: JobRecord) => void): void;
  /** Checkpoints queued and not yet committed. */
  readonly backlog: number;
  /** Resolves once the backlog is at most `count`; rejects after a failure. */
  below(count: number): Promise<void>;
  /** Stops the writer (its thread, if it has one). */
  close(): void;
}

/** Commits in the calling thread, at once. */
export class DirectWriter implements BatchWriter {
  readonly backlog = 0;
  #reader: CheckpointReader | null = null;

  constructor(readonly store: Store) {}

  begin(start: JobStart): void {
    this.#reader = new CheckpointReader(start);
  }

  write(checkpoint: Checkpoint, committed: (job: JobRecord) => void): void {
    const reader = this.#reader!;
    const results = reader.read(checkpoint);
    this.store.commitBatch(checkpoint.jobId, results, reader.counters);
    committed(this.store.getJob(checkpoint.jobId)!);
  }

  below(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {}
}

/** Messages on the port between a ThreadedWriter and its writer thread. */
export type ToWriter =
  | { type: "begin"; gen: number; start: JobStart }
  | { type: "commit"; gen: number; seq: number; checkpoint: Checkpoint };

export type FromWriter =
  | { type: "committed"; gen: number; seq: number; job: JobRecord }
  | { type: "error"; gen: number; seq: number; message: string };

/** The first message to a writer thread: its database and its port. */
export type WriterInit = { type: "init"; dbPath: string; port: MessagePort };

/** Starts a writer thread and connects it to `port`. */
export function startWriterThread(dbPath: string, port: MessagePort): Worker {
  const worker = new Worker(
    new URL("./result_writer_worker.ts", import.meta.url).href,
    { type: "module", name: "result-writer" },
  );
  worker.postMessage(
    { type: "init", dbPath, port } satisfies WriterInit,
    [port],
  );
  return worker;
}

/**
 * Commits on a thread of its own (result_writer_worker.ts), in the order
 * written, talking over a MessagePort. The server's runner starts that
 * thread beside each job worker (a worker started from inside a worker
 * took a second to start); `ThreadedWriter.spawn` starts one from here.
 */
export class ThreadedWriter implements BatchWriter {
  #port: MessagePort;
  #thread: Worker | null;
  /** Replies to an earlier generation (before a reset) are ignored. */
  #gen = 0;
  #seq = 0;
  #pending = new Map<number, (job: JobRecord) => void>();
  #waiters: { count: number; resolve(): void; reject(e: Error): void }[] = [];
  #error: Error | null = null;

  constructor(port: MessagePort, thread: Worker | null = null) {
    this.#port = port;
    this.#thread = thread;
    port.onmessage = (event: MessageEvent<FromWriter>) => {
      const message = event.data;
      if (message.gen !== this.#gen) return;
      const committed = this.#pending.get(message.seq);
      this.#pending.delete(message.seq);
      if (message.type === "error") this.#fail(new Error(message.message));
      else committed?.(message.job);
      this.#wake();
    };
    thread?.addEventListener("error", (event) => {
      event.preventDefault();
      this.#fail(new Error(`result writer stopped: ${event.message}`));
    });
  }

  /** A writer with a thread of its own (tests, the profiler). */
  static spawn(dbPath: string): ThreadedWriter {
    const channel = new MessageChannel();
    const thread = startWriterThread(dbPath, channel.port1);
    return new ThreadedWriter(channel.port2, thread);
  }

  get backlog(): number {
    return this.#pending.size;
  }

  /** True after a failure: no more checkpoints until a reset. */
  get failed(): boolean {
    return this.#error !== null;
  }

  /** Forgets a failure and what was in flight (a new job). */
  reset(): void {
    this.#gen++;
    this.#error = null;
    this.#pending.clear();
  }

  begin(start: JobStart): void {
    if (this.#error) throw this.#error;
    this.#port.postMessage(
      { type: "begin", gen: this.#gen, start } satisfies ToWriter,
    );
  }

  write(checkpoint: Checkpoint, committed: (job: JobRecord) => void): void {
    if (this.#error) throw this.#error;
    const seq = ++this.#seq;
    this.#pending.set(seq, committed);
    this.#port.postMessage(
      { type: "commit", gen: this.#gen, seq, checkpoint } satisfies ToWriter,
    );
  }

  below(count: number): Promise<void> {
    if (this.#error) return Promise.reject(this.#error);
    if (this.#pending.size <= count) return Promise.resolve();
    return new Promise((resolve, reject) =>
      this.#waiters.push({ count, resolve, reject })
    );
  }

  close(): void {
    this.#fail(new Error("result writer closed"));
    this.#port.close();
    this.#thread?.terminate();
  }

  #fail(error: Error): void {
    this.#error ??= error;
    this.#pending.clear();
    for (const waiter of this.#waiters.splice(0)) waiter.reject(this.#error);
  }

  #wake(): void {
    this.#waiters = this.#waiters.filter((waiter) => {
      if (this.#pending.size > waiter.count) return true;
      waiter.resolve();
      return false;
    });
  }
}
