// A chunk's finished rows as results, in the thread that looked them up:
// each distinct address refers to its place and organisation by number (two
// Int32Array slots, not an object per address), and a row's result is
// composed when it is committed, by the same rules as the engine's lookups
// (compose.ts), once per key (its place, organisation and whether it has a
// host name) while the key is recent, then handed on at once, with the
// chunk's counters: no object per row is kept.
import type { Failure } from "../../shared/failures.ts";
import type { SourceLine } from "../csv/chunk_lines.ts";
import type { HostnameLookups } from "../../shared/wire.ts";
import {
  composeFinished,
  failedEnrichment,
  type HostName,
  type Network,
  reuseFinished,
} from "../enrichment/compose.ts";
import type { Enrichment } from "../enrichment/types.ts";
import type { Place } from "../enrichment/geo_provider.ts";
import type { EnrichOptions } from "../enrichment/types.ts";
import {
  type Counters,
  type OutputRow,
  zeroCounters,
} from "../storage/result_rows.ts";

/** A place or organisation number for "none". */
export const NONE = -1;

/**
 * A row key (RowSink) from its address's place and organisation numbers
 * and whether it has a host name; -1 when the numbers are too large.
 */
export function rowKey(place: number, network: number, named: boolean): number {
  return place + 1 < 2 ** 28 && network + 1 < 2 ** 24
    ? ((place + 1) * 2 ** 24 + network + 1) * 2 + (named ? 1 : 0)
    : -1;
}

/** The place number of a row key of 0 or more. */
export const keyPlace = (key: number): number => Math.floor(key / 2 ** 25) - 1;

/** The organisation number of a row key of 0 or more. */
export const keyNetwork = (key: number): number =>
  Math.floor(key / 2) % 2 ** 24 - 1;

/**
 * Where finished rows go, in input order, each with its key (rowKey): two
 * rows of one key have the same values but for their own (address, host
 * name, domain, ip_used); of one place number (keyPlace), the same place's;
 * of one organisation number (keyNetwork) and a place that could be read,
 * the same organisation's. -1: a failed row, or numbers too large. The row
 * and its enrichment are reused for the next row: read, never kept.
 */
export type RowSink = (row: OutputRow, key: number) => void;

/** Keys whose composed enrichment is kept for their next rows, at most. */
const KEYS_KEPT = 1024;

export class RowResults {
  /** The chunk's counters, with every row added so far. */
  readonly counters: Counters = zeroCounters();
  /** By record key, its place's number (NONE: a record with no place). */
  #placeIds = new Map<number, number>();
  #places: Place[] = [];
  #networkIds = new Map<Network, number>();
  #networks: Network[] = [];
  /** The numbers of #places[0] and #networks[0] (see startOver). */
  #placeBase = 0;
  #networkBase = 0;
  /** Recent keys' enrichment, reused for their next rows. */
  #byKey = new Map<number, Enrichment>();
  /** The one row object handed on, reused. */
  #row: OutputRow | null = null;
  /** The one host name handed to compose.ts, reused (its fields are copied). */
  #name: HostName = { hostname: null, domain: null };

  constructor(readonly options: EnrichOptions, readonly sink: RowSink) {}

  /**
   * The number of the place of a record key (Engine.placeKey; -1: none),
   * or undefined when the key is new: addPlace numbers it.
   */
  placeIdOf(key: number): number | undefined {
    return key < 0 ? NONE : this.#placeIds.get(key);
  }

  /** Numbers the place of a new record key (NONE when there is none). */
  addPlace(key: number, place: Place | null): number {
    const id = place ? this.#placeBase + this.#places.push(place) - 1 : NONE;
    this.#placeIds.set(key, id);
    return id;
  }

  /** The place a number stands for (NONE: null). */
  place(id: number): Place | null {
    return id === NONE ? null : this.#places[id - this.#placeBase];
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
    record: SourceLine,
    ip: string,
    place: number,
    network: number,
    hostname: string | null,
    domain: string | null,
    ipUsed: string | null = null,
  ): void {
    // composeFinished reads the host name only for whether it is there.
    const key = rowKey(place, network, Boolean(hostname));
    const name = this.#name;
    name.hostname = hostname;
    name.domain = domain;
    let enrichment = key < 0 ? undefined : this.#byKey.get(key);
    if (enrichment) reuseFinished(enrichment, ip, name);
    else {
      enrichment = composeFinished(
        ip,
        {
          place: this.place(place),
          network: this.network(network),
        },
        name,
        this.options,
      );
      if (key >= 0) {
        if (this.#byKey.size >= KEYS_KEPT) this.#byKey.clear();
        this.#byKey.set(key, enrichment);
      }
    }
    enrichment.ip_used = ipUsed;
    const counters = this.counters;
    counters.processed++;
    if (enrichment.success) counters.successful++;
    else counters.failed++;
    if (enrichment.ispFiltered) counters.filtered++;
    this.#handOn(rowIndex, record, enrichment, key);
  }

  /** A row whose address failed, with the reason. */
  addFailed(
    rowIndex: number,
    record: SourceLine,
    ip: string,
    failure: Failure,
    ipUsed: string | null = null,
  ): void {
    const enrichment = failedEnrichment(ip, failure);
    enrichment.ip_used = ipUsed;
    this.counters.processed++;
    this.counters.failed++;
    this.#handOn(rowIndex, record, enrichment, -1);
  }

  #handOn(
    rowIndex: number,
    line: SourceLine,
    enrichment: Enrichment,
    key: number,
  ): void {
    const row = this.#row ??= { rowIndex, line, enrichment };
    row.rowIndex = rowIndex;
    row.line = line;
    row.enrichment = enrichment;
    this.sink(row, key);
  }

  /** Host-name lookups whose answers the rows added are the first to use. */
  addLookups(lookups: HostnameLookups): void {
    const total = this.counters.hostnameLookups!;
    total.answered += lookups.answered;
    total.noName += lookups.noName;
    total.timedOut += lookups.timedOut;
    total.skipped += lookups.skipped;
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
    this.#byKey.clear();
  }
}
