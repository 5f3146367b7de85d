// The rows a job has read and not yet committed, in file order. A row is
// ready once its host name and registration are in (or it needs none); rows
// leave from the front only, so progress commits stay in order, while rows
// behind a slow address keep being read and looked up. What bounds the window is memory
// (rows and their size), never the slowest answer in it.
import type { ChunkLines, SourceLine } from "../csv/chunk_lines.ts";
import type { Failure } from "../../shared/failures.ts";
import type { HostName } from "../enrichment/compose.ts";
import type { HostnameLookups } from "../../shared/wire.ts";
import type { LookupOutcome } from "../enrichment/reverse_dns.ts";
import { resized } from "../typed_arrays.ts";

/** Where each lookup outcome is counted in a job's HostnameLookups. */
export const LOOKUP_KEY: Record<LookupOutcome, keyof HostnameLookups> = {
  answered: "answered",
  no_name: "noName",
  timed_out: "timedOut",
  skipped: "skipped",
};

// While the window is full, how long to wait for an answer before looking
// at a cancel again.
const WAIT_STEP_MS = 50;

/** A host name with how its lookup ended; `counted` once a row committed it. */
export interface HostAnswer extends HostName {
  outcome: LookupOutcome;
  counted: boolean;
}

/** Per address slot: its answer, or the lookup still on its way. */
export type HostSlots = (HostAnswer | Promise<HostAnswer>)[];

/**
 * Reads a row taken off the front (RowWindow.take): its index, its line
 * (one object, refilled for each row: read it, do not keep it), its
 * address, which address of the cell was used (when not the cell as is),
 * and its address's slot, or -1 and why it failed.
 */
export type RowReader = (
  rowIndex: number,
  line: SourceLine,
  ip: string,
  ipUsed: string | null,
  slot: number,
  failure: Failure | null,
) => void;

/** Bytes a row holds, roughly: its line and its columns' entries. */
function rowBytes(start: number, end: number): number {
  return 64 + end - start;
}

/**
 * Rows read and not yet committed, at most: by count, by their size, and
 * by lookups waiting for a place in the resolver's window (its queue).
 * Reading pauses only at these bounds; a slow answer holds its own rows.
 */
export interface WindowLimits {
  rows: number;
  bytes: number;
  queuedLookups: number;
}

export const WINDOW_LIMITS: WindowLimits = {
  rows: 50_000,
  bytes: 32 * 1024 * 1024,
  queuedLookups: 20_000,
};
/**
 * The rows in flight as columns (no object per row), the numeric ones
 * typed arrays kept from batch to batch: a row is pushed when read,
 * then set once its cell is read (a host-name cell may take a while:
 * `wait`), and ready once its slot's answers are in (`pendingOf`).
 */
export class RowWindow {
  /** The chunk's bytes, which every row's line is in. */
  #buf: Uint8Array = new Uint8Array(0);
  #start = new Int32Array(1024);
  #contentEnd = new Int32Array(1024);
  #end = new Int32Array(1024);
  #fields = new Int32Array(1024);
  /** The address's slot, or -1: failed (#failures) or not set yet. */
  #slots = new Int32Array(1024);
  #ips: string[] = [];
  #ipUsed: (string | null)[] = [];
  /** By row index: why a row failed, and rows whose cell is on its way. */
  #failures = new Map<number, Failure>();
  #waiting = new Map<number, Promise<void>>();
  /** The row index at position 0 (rows are consecutive). */
  #first = 0;
  #head = 0;
  /** Positions in use: rows from `#head` up to here are in the window. */
  #length = 0;
  /** Rows from `#head` up to here are known to be ready. */
  #readyEnd = 0;
  #bytes = 0;
  /** The line handed to a RowReader, refilled for each row. */
  #line: SourceLine = {
    buf: this.#buf,
    start: 0,
    contentEnd: 0,
    end: 0,
    fields: 0,
  };

  /** `pendingOf`: a slot's answer still on its way, or null. */
  constructor(
    readonly pendingOf: (slot: number) => Promise<unknown> | null,
  ) {}

  /** Rows in the window. */
  get size(): number {
    return this.#length - this.#head;
  }

  /** Whether reading should pause: a bound reached (`dns`: its queue). */
  full(limits: WindowLimits, dns: { queued: number }): boolean {
    return this.size >= limits.rows || this.#bytes >= limits.bytes ||
      (this.size > 0 && dns.queued >= limits.queuedLookups);
  }

  /** Adds record i of `lines` as the row read next, to be set (or failed). */
  push(rowIndex: number, lines: ChunkLines, i: number): void {
    const at = this.#length++;
    if (at === 0) this.#first = rowIndex;
    if (at === this.#start.length) {
      const n = at * 2;
      this.#start = resized(this.#start, n);
      this.#contentEnd = resized(this.#contentEnd, n);
      this.#end = resized(this.#end, n);
      this.#fields = resized(this.#fields, n);
      this.#slots = resized(this.#slots, n);
    }
    this.#buf = lines.buf;
    const start = lines.start[i];
    const end = lines.end[i];
    this.#start[at] = start;
    this.#contentEnd[at] = lines.contentEnd[i];
    this.#end[at] = end;
    this.#fields[at] = lines.fields[i];
    this.#slots[at] = -1;
    this.#ips[at] = "";
    this.#ipUsed[at] = null;
    this.#bytes += rowBytes(start, end);
  }

  /** A row's address and its slot. */
  set(rowIndex: number, ip: string, ipUsed: string | null, slot: number) {
    const at = rowIndex - this.#first;
    this.#ips[at] = ip;
    this.#ipUsed[at] = ipUsed;
    this.#slots[at] = slot;
  }

  /** A row whose address failed. */
  fail(rowIndex: number, ip: string, failure: Failure, ipUsed: string | null) {
    const at = rowIndex - this.#first;
    this.#ips[at] = ip;
    this.#ipUsed[at] = ipUsed;
    this.#failures.set(rowIndex, failure);
  }

  /** A row set (or failed) once `cell` is resolved. */
  wait(rowIndex: number, cell: Promise<void>): void {
    this.#waiting.set(rowIndex, cell);
    cell.then(() => this.#waiting.delete(rowIndex));
  }

  /** What the row at position `at` waits for, or null: it is ready. */
  #pending(at: number): Promise<unknown> | null {
    const waiting = this.#waiting.get(this.#first + at);
    if (waiting) return waiting;
    const slot = this.#slots[at];
    return slot < 0 ? null : this.pendingOf(slot);
  }

  /** Rows at the front whose answers are all in. */
  readyCount(): number {
    const end = this.#length;
    while (this.#readyEnd < end && this.#pending(this.#readyEnd) === null) {
      this.#readyEnd++;
    }
    return this.#readyEnd - this.#head;
  }

  /** Reads `count` ready rows off the front (readyCount first). */
  take(count: number, read: RowReader): void {
    const from = this.#head;
    const to = Math.min(from + count, this.#length);
    const line = this.#line;
    line.buf = this.#buf;
    for (let at = from; at < to; at++) {
      const rowIndex = this.#first + at;
      line.start = this.#start[at];
      line.contentEnd = this.#contentEnd[at];
      line.end = this.#end[at];
      line.fields = this.#fields[at];
      const failure = this.#failures.size > 0
        ? this.#failures.get(rowIndex) ?? null
        : null;
      if (failure) this.#failures.delete(rowIndex);
      this.#bytes -= rowBytes(line.start, line.end);
      read(
        rowIndex,
        line,
        this.#ips[at],
        this.#ipUsed[at],
        failure ? -1 : this.#slots[at],
        failure,
      );
    }
    this.#head = to;
    // The columns' room is used again from position 0 once every row is
    // taken (the common case), or once most of it is taken.
    if (this.#head === this.#length) {
      this.#readyEnd = this.#head = this.#length = 0;
      // Fresh text columns: an array the collector promoted would take a
      // row's text at the cost of a write barrier.
      this.#ips.length = this.#ipUsed.length = 0;
    } else if (this.#head > 4096 && this.#head * 2 > this.#length) {
      const head = this.#head;
      const length = this.#length;
      for (
        const column of [
          this.#start,
          this.#contentEnd,
          this.#end,
          this.#fields,
          this.#slots,
          this.#ips,
          this.#ipUsed,
        ]
      ) column.copyWithin(0, head, length);
      this.#first += head;
      this.#length -= head;
      this.#ips.length = this.#ipUsed.length = this.#length;
      this.#readyEnd -= head;
      this.#head = 0;
    }
  }

  /**
   * Resolves when the first row not ready gets its answer, or after
   * WAIT_STEP_MS at most (so the caller can look at a cancel in between).
   */
  async nextAnswer(): Promise<void> {
    const answer = this.readyCount() < this.size
      ? this.#pending(this.#readyEnd)
      : null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const elapsed = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, WAIT_STEP_MS);
    });
    await Promise.race(answer ? [answer, elapsed] : [elapsed]);
    clearTimeout(timer);
  }
}
