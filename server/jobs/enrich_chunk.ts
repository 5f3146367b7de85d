// Enriches one chunk of a job from the chunk's first row to its end
// (run_chunk.ts runs it in both modes). Kept free of Worker APIs so it can
// be tested directly. One class whose steps share the run's state; reading
// cells lives in pending_row.ts, the rows in flight in row_window.ts,
// registration lookups in registration_slots.ts.
import { join } from "node:path";
import { readChunkLines } from "../csv/chunk_lines.ts";
import { AddressSlots } from "../enrichment/address_slots.ts";
import { JobHostEvidence } from "../classification/job_host_evidence.ts";
import { LowConfidenceRows } from "../classification/low_confidence.ts";
import { type KeepList, parseKeepList } from "../classification/overrides.ts";
import type { Engine, EngineData } from "../enrichment/engine.ts";
import {
  ipv4Text,
  ipv4ToNumber,
  ipv6ToWords,
  type ParsedIp,
  reservedIpv4,
} from "../enrichment/ip_input.ts";
import { registrableDomain } from "../enrichment/reverse_dns.ts";
import { release, resized } from "../typed_arrays.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";
import type { ChunkWriter } from "./chunk_writer.ts";
import { NONE, RowResults } from "./row_results.ts";
import { emptyLookups } from "../storage/result_rows.ts";
import type { RegistrationLookup } from "../rdap/registration_lookup.ts";
import { JobRegistrations } from "./registration_slots.ts";
import { HostnameCache, readCell } from "./pending_row.ts";
import {
  type HostAnswer,
  type HostSlots,
  LOOKUP_KEY,
  type RowReader,
  RowWindow,
  WINDOW_LIMITS,
  type WindowLimits,
} from "./row_window.ts";
import type { HostnameLookups } from "../../shared/wire.ts";

export interface EnrichChunkContext {
  store: JobStore;
  engine: Engine;
  uploadsDir: string;
  /** Rows per progress commit (<= 100). */
  progressRows: number;
  /** True once the job was cancelled; checked between batches. */
  cancelled(): boolean;
  /** Called after every commit with the job as stored. */
  onProgress(job: JobRecord): void;
  /** Where finished rows go (a ChunkWriter, started: it holds the job). */
  writer: ChunkWriter;
  /** Bounds of the rows in flight (default WINDOW_LIMITS). */
  limits?: WindowLimits;
  /** Distinct addresses kept before starting over (default ADDRESS_LIMIT). */
  addressLimit?: number;
  /** A registration lookup for this run (null or absent: RDAP off). */
  registrationLookup?: () => RegistrationLookup | null;
  /** The rows of the chunk. */
  range: ChunkRange;
}

/** Bytes [start, end) of the upload, rows from firstRow. */
export interface ChunkRange {
  start: number;
  end: number;
  firstRow: number;
}

export const FILE_GONE =
  "The uploaded file is no longer available; upload it again";

// Distinct addresses remembered per job (with their places and
// organisations in both threads); past this, once the rows in flight are
// committed, the job starts over (startOver) and an address seen again is
// looked up again, so memory stays flat however long the file.
export const ADDRESS_LIMIT = 500_000;
// Batches handed to the writer and not yet committed, at most.
const WRITER_BACKLOG = 16;
/** Rows read between two turns of the event loop when DNS answers come. */
const YIELD_ROWS = 500;

export type ChunkOutcome = "completed" | "cancelled" | "lost";

/**
 * By ASN table organisation of one engine data, the number a chunk's run
 * gave its network (RowResults.networkId), valid for the run whose number
 * is in `runs`: one table per thread and data, as an array of the tables'
 * size made per chunk made the collector run more often.
 */
interface NetworkNumbers {
  data: EngineData;
  ids: Int32Array;
  runs: Int32Array;
}
const networkNumbers = new WeakMap<EngineData, NetworkNumbers>();
/** The last number given to a run (a start-over takes a new one). */
let lastRun = 0;

/** A cell's address slot, and which address of it was used (readCell). */
interface CellRead {
  slot: number;
  note: string | null;
}

export function enrichChunk(ctx: EnrichChunkContext): Promise<ChunkOutcome> {
  return new ChunkEnrichment(ctx).run();
}

/** One run of a job; its steps are the methods below, in order. */
class ChunkEnrichment {
  readonly #ctx: EnrichChunkContext;
  #job!: JobRecord;
  readonly #writer: ChunkWriter;
  /** The chunk's places, organisations, finished rows and counters. */
  #rows!: RowResults;
  /** The job's "always keep" AS numbers and CIDRs, or null. */
  #keep: KeepList | null = null;
  /** With Domain on: what the job's host names say of each network. */
  #hostEvidence: JobHostEvidence | null = null;
  /** The job's choice for rows the classifier is unsure of. */
  #lowConfidence!: LowConfidenceRows;
  // Each distinct address is looked up once: its number, then the numbers
  // of its place and organisation (typed arrays: an object per address
  // would be most of the job's heap), and its host name.
  #slots = new AddressSlots();
  #placeOfSlot = new Int32Array(1024);
  #networkOfSlot = new Int32Array(1024);
  /** See NetworkNumbers: this run's number, and its engine data's table. */
  #run = ++lastRun;
  #numbers: NetworkNumbers | null = null;
  #hostNameOfSlot: HostSlots = [];
  /** Each slot's address text, shared by the rows that have it. */
  #ipOfSlot: string[] = [];
  /**
   * Cells other than plain IPv4 addresses (chunk_lines.ts) read at once as
   * an address, by their text: read once each.
   */
  #cellReads = new Map<string, CellRead>();
  /** The words of the address being looked up (Engine.placeKey), refilled. */
  #v4Words = [0];
  #v6Words = [0, 0, 0, 0];
  #window = new RowWindow((slot) => this.#pendingOf(slot));
  /** Host-name lookups the rows of the batch being committed counted. */
  #lookups: HostnameLookups | null = null;
  #limits: WindowLimits;
  #addressLimit: number;
  #hostnames: HostnameCache;
  /** Registration lookups, when the job asked and the server has RDAP on. */
  #registrations: JobRegistrations | null = null;
  /** The chunk's bytes, which its lines are read from. */
  #chunkBytes: Uint8Array | null = null;

  constructor(ctx: EnrichChunkContext) {
    this.#ctx = ctx;
    this.#writer = ctx.writer;
    this.#limits = ctx.limits ?? WINDOW_LIMITS;
    this.#addressLimit = ctx.addressLimit ?? ADDRESS_LIMIT;
    this.#hostnames = new HostnameCache(ctx.engine.dns.settings);
  }

  async run(): Promise<ChunkOutcome> {
    const path = await this.#openInput();
    if (path === null) return "lost";
    try {
      if (!await this.#readRows(path)) return "cancelled";
      return await this.#finish();
    } finally {
      // The rows are committed or dropped: no line is read again.
      if (this.#chunkBytes) release(this.#chunkBytes);
    }
  }

  /** The job's file, or null when it is gone. */
  async #openInput(): Promise<string | null> {
    // As read when the chunk was taken, which found the job processing.
    const { job } = this.#writer;
    const path = join(this.#ctx.uploadsDir, job.fileName);
    try {
      await Deno.stat(path);
    } catch {
      await this.#ctx.store.setStatus(
        job.id,
        "failed",
        ["processing"],
        FILE_GONE,
      );
      return null;
    }
    this.#job = job;
    this.#rows = new RowResults(job.options, this.#writer.output);
    this.#keep = job.alwaysKeep ? parseKeepList(job.alwaysKeep) : null;
    this.#hostEvidence = job.options.domain ? new JobHostEvidence() : null;
    this.#lowConfidence = new LowConfidenceRows(
      job.options.lowConfidence ?? "keep",
    );
    const lookup = job.options.registration
      ? this.#ctx.registrationLookup?.() ?? null
      : null;
    if (lookup) {
      const { classifier } = this.#ctx.engine;
      this.#registrations = new JobRegistrations(
        lookup,
        (asn) => classifier.isCarrier(asn),
      );
    }
    return path;
  }

  /**
   * Reads the chunk's rows, looking each up as it is read
   * (reverse DNS runs for many rows at once) and committing the rows at the
   * front as their answers come in. False when cancelled.
   */
  async #readRows(path: string): Promise<boolean> {
    const job = this.#job;
    const range = this.#ctx.range;
    // The index of the row before the next one read (the header is -1; a
    // chunk from byte 0 starts with it).
    let rowIndex = range.start > 0 ? range.firstRow - 1 : -2;
    // Rows arrive a file chunk at a time: no promise per row.
    const dnsOn = job.options.domain;
    let sinceYield = 0;
    const dialect = job.dialect!;
    const column = job.ipColumnIndex;
    for await (const lines of readChunkLines(path, dialect, range, column)) {
      this.#chunkBytes = lines.buf;
      for (let i = 0; i < lines.count; i++) {
        rowIndex++;
        if (rowIndex < 0) continue; // the header
        this.#window.push(rowIndex, lines, i);
        const v4 = lines.v4[i];
        if (v4 >= 0) this.#lookUpV4(rowIndex, v4);
        else this.#lookUp(rowIndex, lines.cells[i]);
        // Answers wait in the sockets' small kernel buffers (dns_window.ts)
        // while rows are read: let them in every few hundred rows.
        if (dnsOn && ++sinceYield >= YIELD_ROWS) {
          sinceYield = 0;
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
      }
      await this.#commitReady();
      if (this.#slots.size >= this.#addressLimit) await this.#startOver();
      // Read on unless the window is full; then commit as answers come.
      const { dns } = this.#ctx.engine;
      while (!this.#ctx.cancelled() && this.#window.full(this.#limits, dns)) {
        await this.#window.nextAnswer();
        await this.#commitReady();
      }
      if (this.#ctx.cancelled()) {
        await this.#writer.stop();
        return false;
      }
    }
    return true;
  }

  /**
   * A row whose cell is an IPv4 address as parseIp writes it: a repeated
   * address takes its slot, with no text made or parsed.
   */
  #lookUpV4(rowIndex: number, v4: number): void {
    let slot = this.#slots.getV4(v4);
    if (slot >= 0) {
      this.#window.set(rowIndex, this.#ipOfSlot[slot], null, slot);
      return;
    }
    const ip = ipv4Text(v4);
    const range = reservedIpv4(v4);
    if (range !== null) {
      this.#window.fail(rowIndex, ip, { kind: "reserved", range }, null);
      return;
    }
    this.#v4Words[0] = v4;
    slot = this.#newSlot(this.#slots.addV4(v4), ip, this.#v4Words);
    this.#window.set(rowIndex, ip, null, slot);
  }

  /**
   * A row's cell read as logs hold it (readCell) and looked up; a cell read
   * before as an address takes its slot and note.
   */
  #lookUp(rowIndex: number, cell: string): void {
    const window = this.#window;
    const known = this.#cellReads.get(cell);
    if (known) {
      window.set(rowIndex, this.#ipOfSlot[known.slot], known.note, known.slot);
      return;
    }
    const { options } = this.#job;
    let read: CellRead | null = null;
    const waiting = readCell(
      cell,
      options.resolveHostnames ? this.#hostnames : null,
      (parsed, note) => {
        const slot = this.#lookUpAddress(rowIndex, parsed, note);
        if (slot >= 0) read = { slot, note };
      },
      (ip, failure, ipUsed) => window.fail(rowIndex, ip, failure, ipUsed),
    );
    if (waiting) window.wait(rowIndex, waiting);
    else if (read) this.#cellReads.set(cell, read);
  }

  /**
   * An address read from a cell looked up (its host name maybe pending);
   * its slot, or -1 when it failed.
   */
  #lookUpAddress(
    rowIndex: number,
    parsed: ParsedIp,
    ipUsed: string | null,
  ): number {
    if (!parsed.ok) {
      this.#window.fail(rowIndex, parsed.ip, parsed.failure, ipUsed);
      return -1;
    }
    const slots = this.#slots;
    const { ip } = parsed;
    const v4 = parsed.version === 4 ? ipv4ToNumber(ip) : -1;
    let slot = v4 >= 0 ? slots.getV4(v4) : slots.get(ip);
    if (slot < 0) {
      if (v4 >= 0) this.#v4Words[0] = v4;
      slot = v4 >= 0
        ? this.#newSlot(slots.addV4(v4), ip, this.#v4Words)
        : this.#newSlot(slots.add(ip), ip, ipv6ToWords(ip, this.#v6Words));
    }
    this.#window.set(rowIndex, ip, ipUsed, slot);
    return slot;
  }

  /**
   * A new address's slot filled: its place and organisation numbers (the
   * address given as its words), and its host name and registration asked
   * for when the job wants them.
   */
  #newSlot(slot: number, ip: string, words: number[]): number {
    const { options } = this.#job;
    const { engine } = this.#ctx;
    const rows = this.#rows;
    this.#ipOfSlot[slot] = ip;
    if (slot === this.#placeOfSlot.length) {
      this.#placeOfSlot = resized(this.#placeOfSlot, slot * 2);
      this.#networkOfSlot = resized(this.#networkOfSlot, slot * 2);
    }
    // Each record's place is decoded once a chunk: the addresses of a town
    // share it.
    const key = engine.placeKey(words, options);
    let place = options.geolocation ? rows.placeIdOf(key) : NONE;
    place ??= rows.addPlace(key, engine.geo.placeAt(key));
    this.#placeOfSlot[slot] = place;
    // The place's traits (Enterprise) may name the company and type.
    const traits = options.geolocation
      ? rows.place(place)
      : engine.geo.hasTraits
      ? engine.geo.placeAt(key)
      : null;
    // Else an organisation's network is numbered once a chunk, by its table
    // index (registrations start from the network itself).
    const org = this.#registrations || traits?.vendor
      ? -1
      : engine.organisationKey(words);
    const numbers = this.#networkNumbers(engine);
    const run = this.#run;
    let id = org >= 0 && numbers.runs[org] === run ? numbers.ids[org] : -1;
    if (id < 0) {
      const network = org >= 0
        ? engine.tableNetwork(org)
        : engine.networkAt(words, traits);
      // Without host names (which come first) the job's choice for doubted
      // networks is the address's own: made once here, not per row.
      id = rows.networkId(
        network && !this.#hostEvidence
          ? this.#lowConfidence.apply(network)
          : network,
      );
      if (org >= 0) {
        numbers.ids[org] = id;
        numbers.runs[org] = run;
      }
      this.#registrations?.start(slot, ip, network);
    }
    this.#networkOfSlot[slot] = id;
    if (options.domain) {
      const pending = engine.dns.resolve(ip).then((
        { host, outcome },
      ): HostAnswer => ({
        hostname: host,
        domain: registrableDomain(host),
        outcome,
        counted: false,
      }));
      const list = this.#hostNameOfSlot; // a fresh list after a start-over
      list[slot] = pending;
      pending.then((value) => list[slot] = value);
    }
    return slot;
  }

  /** The organisation numbers of `engine`'s data (see NetworkNumbers). */
  #networkNumbers(engine: Engine): NetworkNumbers {
    if (this.#numbers?.data !== engine.data) {
      let numbers = networkNumbers.get(engine.data);
      if (!numbers) {
        const { orgCount } = engine.asn;
        numbers = {
          data: engine.data,
          ids: new Int32Array(orgCount),
          runs: new Int32Array(orgCount),
        };
        networkNumbers.set(engine.data, numbers);
      }
      this.#numbers = numbers;
    }
    return this.#numbers;
  }

  /** A slot's host name or registration still on its way, or null. */
  #pendingOf(slot: number): Promise<unknown> | null {
    const host = this.#job.options.domain
      ? this.#hostNameOfSlot[slot]
      : undefined;
    if (host instanceof Promise) return host;
    const registration = this.#registrations?.slots[slot];
    return registration instanceof Promise ? registration : null;
  }

  /**
   * Forgets the job's addresses, places and organisations once every row
   * in flight (which refers to them by number) is committed.
   */
  async #startOver(): Promise<void> {
    await this.#commitReady(true);
    if (this.#window.size > 0) return; // cancelled
    this.#slots.clear();
    this.#ipOfSlot = [];
    this.#cellReads.clear();
    this.#run = ++lastRun;
    this.#hostNameOfSlot = [];
    if (this.#registrations) this.#registrations.slots = [];
    this.#rows.startOver();
  }

  /**
   * Commits the rows at the front whose answers are in, a batch of
   * `progressRows` at a time, in order (`final`: every row, waiting for
   * the answers, the last batch maybe shorter).
   */
  async #commitReady(final = false): Promise<void> {
    const { progressRows } = this.#ctx;
    const window = this.#window;
    while (window.size > 0 && !this.#ctx.cancelled()) {
      const ready = window.readyCount();
      if (ready < progressRows && ready < window.size) {
        if (!final) return;
        await window.nextAnswer();
        continue;
      }
      if (!final && ready < progressRows) return; // a last short one waits
      this.#commitBatch(Math.min(ready, progressRows));
      if (this.#writer.backlog > WRITER_BACKLOG) {
        await this.#writer.waitForBacklogAtMost(WRITER_BACKLOG / 2);
      }
    }
  }

  /** Hands rows whose answers are all in to the writer as one batch. */
  #commitBatch(count: number): void {
    // Each lookup is counted with the first row that commits its answer,
    // so the counts stored at a commit match the rows stored.
    const lookups = this.#job.options.domain ? emptyLookups() : null;
    this.#lookups = lookups;
    this.#window.take(count, this.#commitRow);
    if (lookups) this.#rows.addLookups(lookups);
    this.#writer.write(
      this.#rows.counters,
      false,
      this.#ctx.onProgress,
    );
  }

  /** A row whose answers are all in, its network decided, to the rows. */
  #commitRow: RowReader = (rowIndex, line, ip, ipUsed, slot, failure) => {
    const rows = this.#rows;
    if (failure !== null) {
      rows.addFailed(rowIndex, line, ip, failure, ipUsed);
      return;
    }
    const { engine } = this.#ctx;
    const keep = this.#keep;
    const answer = this.#job.options.domain
      ? this.#hostNameOfSlot[slot] as HostAnswer
      : undefined;
    const lookups = this.#lookups;
    if (answer && lookups && !answer.counted) {
      answer.counted = true;
      lookups[LOOKUP_KEY[answer.outcome]]++;
    }
    const hostname = answer?.hostname ?? null;
    let network = this.#networkOfSlot[slot];
    // Many dynamic host names in one network: its other rows too.
    if (network >= 0 && this.#hostEvidence) {
      const base = rows.network(network)!;
      const own = this.#hostEvidence.apply(base, ip, hostname);
      if (own !== base) network = rows.networkId(own);
    }
    // Rows the model doubts, as the job chose (before the keep list,
    // which wins; made per address when there is no host evidence).
    if (network >= 0 && this.#hostEvidence) {
      const base = rows.network(network)!;
      const own = this.#lowConfidence.apply(base);
      if (own !== base) network = rows.networkId(own);
    }
    // The host name and the keep list may decide this address otherwise
    // than its network (a static business name inside an access network).
    if (network >= 0 && engine.classifier.needsAddress(hostname, keep)) {
      const base = rows.network(network)!;
      const own = engine.networkFor(base, ip, hostname, keep);
      network = rows.networkId(own);
    }
    // Registration data has the last word (a customer inside a carrier).
    const registrations = this.#registrations;
    if (network >= 0 && registrations) {
      const base = rows.network(network)!;
      const own = registrations.apply(base, slot);
      if (own !== base) network = rows.networkId(own);
    }
    rows.add(
      rowIndex,
      line,
      ip,
      this.#placeOfSlot[slot],
      network,
      hostname,
      answer?.domain ?? null,
      ipUsed,
    );
  };

  /**
   * Commits the last rows; the chunk's last commit marks it done (and
   * completes the job when it was the last open chunk).
   */
  async #finish(): Promise<ChunkOutcome> {
    const { store } = this.#ctx;
    await this.#commitReady(true);
    if (this.#ctx.cancelled()) {
      await this.#writer.stop();
      return "cancelled";
    }
    // Counted before the last commit: that commit may end the job.
    if (this.#registrations) {
      await store.addRegistrationLookups(
        this.#job.id,
        this.#registrations.outcomes(),
      );
    }
    // The last commit (maybe empty) ends the chunk: its parts stored,
    // then it is done.
    this.#writer.write(
      this.#rows.counters,
      true,
      this.#ctx.onProgress,
    );
    await this.#writer.waitForBacklogAtMost(0);
    return "completed";
  }
}
