// A chunk's finished rows as results, in the thread that looked them up:
// each distinct address refers to its place and organisation by number (two
// Int32Array slots, not an object per address), and a row's result is
// composed when it is committed, by the same rules as the engine's lookups
// (compose.ts), with the chunk's counters and a summary key per row.
import type { Failure } from "../../shared/failures.ts";
import type { ChunkRecord } from "../csv/chunk_lines.ts";
import type { HostnameLookups } from "../../shared/wire.ts";
import {
  composeFinished,
  failedEnrichment,
  type Network,
} from "../enrichment/compose.ts";
import type { Place } from "../enrichment/geo_provider.ts";
import type { EnrichOptions } from "../enrichment/types.ts";
import {
  type Counters,
  type OutputRow,
  zeroCounters,
} from "../storage/result_rows.ts";

/** A place or organisation number for "none". */
export const NONE = -1;

/** Rows committed together: results, and a summary key for each. */
export interface RowBatch {
  results: OutputRow[];
  /**
   * Per result: a number that is the same for two rows whose summary
   * counts are the same (their place, organisation and whether they have
   * a host name), or -1 (a failed row, or numbers too large): rows of one
   * key are counted once, n times (chunk_output.ts).
   */
  keys: number[];
}

export class RowResults {
  /** The chunk's counters, with every row added so far. */
  readonly counters: Counters = zeroCounters();
  #placeIds = new Map<number, number>();
  #places: Place[] = [];
  #networkIds = new Map<Network, number>();
  #networks: Network[] = [];
  /** The numbers of #places[0] and #networks[0] (see startOver). */
  #placeBase = 0;
  #networkBase = 0;
  #batch: RowBatch = { results: [], keys: [] };

  constructor(readonly options: EnrichOptions) {}

  /** A number for a place, or NONE. */
  placeId(place: Place | null): number {
    if (!place) return NONE;
    let id = this.#placeIds.get(place.key);
    if (id === undefined) {
      id = this.#placeBase + this.#places.push(place) - 1;
      this.#placeIds.set(place.key, id);
    }
    return id;
  }

  /** A number for an organisation (by identity), or NONE. */
  networkId(network: Network | null): number {
    if (!network) return NONE;
    let id = this.#networkIds.get(network);
    if (id === undefined) {
      id = this.#networkBase + this.#networks.push(network) - 1;
      this.#networkIds.set(network, id);
    }
    return id;
  }

  /** The organisation a number stands for (NONE: null). */
  network(id: number): Network | null {
    return id === NONE ? null : this.#networks[id - this.#networkBase];
  }

  /** A row whose address has a place and organisation number. */
  add(
    rowIndex: number,
    record: ChunkRecord,
    ip: string,
    place: number,
    network: number,
    hostname: string | null,
    domain: string | null,
    ipUsed: string | null = null,
  ): void {
    const enrichment = composeFinished(
      ip,
      {
        place: place === NONE ? null : this.#places[place - this.#placeBase],
        network: this.network(network),
      },
      { hostname, domain },
      this.options,
    );
    enrichment.ip_used = ipUsed;
    const counters = this.counters;
    counters.processed++;
    if (enrichment.success) counters.successful++;
    else counters.failed++;
    if (enrichment.ispFiltered) counters.filtered++;
    this.#batch.results.push({ rowIndex, line: record, enrichment });
    // composeFinished reads the host name only for whether it is there.
    this.#batch.keys.push(
      place + 1 < 2 ** 28 && network + 1 < 2 ** 24
        ? ((place + 1) * 2 ** 24 + network + 1) * 2 + (hostname ? 1 : 0)
        : -1,
    );
  }

  /** A row whose address failed, with the reason. */
  addFailed(
    rowIndex: number,
    record: ChunkRecord,
    ip: string,
    failure: Failure,
    ipUsed: string | null = null,
  ): void {
    const enrichment = failedEnrichment(ip, failure);
    enrichment.ip_used = ipUsed;
    this.counters.processed++;
    this.counters.failed++;
    this.#batch.results.push({ rowIndex, line: record, enrichment });
    this.#batch.keys.push(-1);
  }

  /** Host-name lookups whose answers the rows added are the first to use. */
  addLookups(lookups: HostnameLookups): void {
    const total = this.counters.hostnameLookups!;
    total.answered += lookups.answered;
    total.noName += lookups.noName;
    total.timedOut += lookups.timedOut;
    total.skipped += lookups.skipped;
  }

  /** The rows added since the last batch was taken. */
  take(): RowBatch {
    const batch = this.#batch;
    this.#batch = { results: [], keys: [] };
    return batch;
  }

  /**
   * Forgets the places and organisations numbered so far, so that a long
   * chunk's tables stay bounded. Numbers go on, never reused: a row's
   * summary key stays its own. Call with no row in flight that refers to
   * them.
   */
  startOver(): void {
    this.#placeBase += this.#places.length;
    this.#networkBase += this.#networks.length;
    this.#placeIds.clear();
    this.#places = [];
    this.#networkIds.clear();
    this.#networks = [];
  }
}
