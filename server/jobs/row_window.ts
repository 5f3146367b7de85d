// The rows a job has read and not yet committed, in file order. A row is
// ready once its host name is in (or it needs none); rows leave from the
// front only, so checkpoints stay in order, while rows behind a slow
// address keep being read and looked up. What bounds the window is memory
// (rows and their size), never the slowest answer in it.
import type { ChunkRecord } from "../csv/chunk_lines.ts";
import type { Failure } from "../../shared/failures.ts";
import type { HostName } from "../enrichment/compose.ts";
import type { HostnameLookups } from "../../shared/wire.ts";
import type { LookupOutcome } from "../enrichment/reverse_dns.ts";
import type { RegistrationSlots } from "./registration_slots.ts";

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

/** One row on its way to a checkpoint. */
export interface PendingRow {
  rowIndex: number;
  row: ChunkRecord;
  /** The address as parsed. */
  ip: string;
  /** Numbers of its place and organisation (RowResults). */
  place: number;
  network: number;
  /** Why the address failed (then no place or organisation). */
  failure: Failure | null;
  /** Where its host name will be (`hosts[slot]`); null: none asked. */
  hosts: HostSlots | null;
  slot: number;
  /** Which address of the cell was looked up, when not the cell as is. */
  ipUsed: string | null;
  /** Where its registration will be (`registrations[slot]`); null: none. */
  registrations?: RegistrationSlots | null;
}

/** A row read: looked up, or a host-name cell still being resolved first. */
export type QueuedRow = PendingRow | Promise<PendingRow>;

/** A place in the window: the row, once its cell is resolved. */
interface Entry {
  row: QueuedRow;
}

/** Bytes a row holds, roughly: its line, its cell and object headers. */
function rowBytes(row: ChunkRecord): number {
  return 160 + row.end - row.start + row.cell.length;
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
export class RowWindow {
  #rows: Entry[] = [];
  #head = 0;
  /** Rows from `#head` up to here are known to be ready. */
  #readyEnd = 0;
  #bytes = 0;
  #sizes: number[] = [];

  /** Rows in the window. */
  get size(): number {
    return this.#rows.length - this.#head;
  }

  /** Bytes the window's rows hold, roughly (rowBytes). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether reading should pause: a bound reached (`dns`: its queue). */
  full(limits: WindowLimits, dns: { queued: number }): boolean {
    return this.size >= limits.rows || this.#bytes >= limits.bytes ||
      (this.size > 0 && dns.queued >= limits.queuedLookups);
  }

  /** Adds a row read from `raw` (the row itself may still be on its way). */
  push(row: QueuedRow, raw: ChunkRecord): void {
    const bytes = rowBytes(raw);
    const entry: Entry = { row };
    if (row instanceof Promise) row.then((done) => entry.row = done);
    this.#rows.push(entry);
    this.#sizes.push(bytes);
    this.#bytes += bytes;
  }

  /** Rows at the front whose host names are all in. */
  readyCount(): number {
    const rows = this.#rows;
    while (this.#readyEnd < rows.length && isReady(rows[this.#readyEnd])) {
      this.#readyEnd++;
    }
    return this.#readyEnd - this.#head;
  }

  /** Takes `count` ready rows off the front (readyCount first). */
  take(count: number): PendingRow[] {
    const from = this.#head;
    const taken = this.#rows.slice(from, from + count).map((entry) =>
      entry.row as PendingRow
    );
    for (let i = from; i < from + taken.length; i++) {
      this.#bytes -= this.#sizes[i];
    }
    this.#head += taken.length;
    // Let committed rows go soon: young objects are cheap to collect, while
    // rows kept around get promoted and grow the heap.
    if (this.#head === this.#rows.length) {
      this.#rows.length = 0;
      this.#sizes.length = 0;
      this.#readyEnd = this.#head = 0;
    } else if (this.#head > 4096 && this.#head * 2 > this.#rows.length) {
      this.#rows.splice(0, this.#head);
      this.#sizes.splice(0, this.#head);
      this.#readyEnd -= this.#head;
      this.#head = 0;
    }
    return taken;
  }

  /**
   * Resolves when the first row not ready gets its answer, or after
   * `maxMs` at most (so the caller can look at a cancel in between).
   */
  async nextAnswer(maxMs = WAIT_STEP_MS): Promise<void> {
    const waiting = this.readyCount() < this.size
      ? this.#rows[this.#readyEnd].row
      : null;
    const host = waiting instanceof Promise
      ? waiting
      : waiting?.hosts?.[waiting.slot];
    // Its host name is in: then its registration is what it waits for.
    const answer = host instanceof Promise || waiting instanceof Promise
      ? host
      : waiting?.registrations?.[waiting.slot];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const elapsed = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
    });
    await Promise.race(
      answer instanceof Promise ? [answer, elapsed] : [
        elapsed,
      ],
    );
    clearTimeout(timer);
  }
}

function isReady({ row }: Entry): boolean {
  if (row instanceof Promise) return false;
  if (row.hosts !== null && row.hosts[row.slot] instanceof Promise) {
    return false;
  }
  return !(row.registrations?.[row.slot] instanceof Promise);
}
