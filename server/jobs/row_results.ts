// A chunk's finished rows as results, in the thread that looked them up:
// each distinct address refers to its place and organisation by number (two
// Int32Array slots, not an object per address), and a row's result is
// composed when it is committed, by the same rules as the engine's lookups
// (compose.ts), once per key of the chunk (its place, organisation and
// whether it has a host name: the sink keeps the key's values), then handed
// on at once, with the chunk's counters; a row of a key seen before hands on
// its own values only. No object per row is kept.
import type { Failure } from "../../shared/failures.ts";
import type { SourceLine } from "../csv/chunk_lines.ts";
import type { HostnameLookups } from "../../shared/wire.ts";
import {
  composeFinished,
  failedEnrichment,
  type Network,
} from "../enrichment/compose.ts";
import type { Enrichment, EnrichOptions } from "../enrichment/types.ts";
import {
  FILTERED,
  type OwnValues,
  SUCCESS,
} from "../results/result_columns.ts";
import type { Place } from "../enrichment/geo_provider.ts";
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
 * the same organisation's. -1: a failed row, or numbers too large. A row of
 * a key added before is added by its own values (`addKnown`, which gives
 * its key's flags, result_columns.ts, or -1 for a new key), another with
 * its enrichment (`addRow`). What is handed on is read, never kept: the
 * objects are reused for the next row.
 */
export interface RowSink {
  addRow(row: OutputRow, key: number): void;
  addKnown(
    rowIndex: number,
    line: SourceLine,
    own: OwnValues,
    key: number,
  ): number;
}

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
  /** The one row object handed on, reused. */
  #row: OutputRow | null = null;
  /** A row's own values handed on, reused (its fields are copied). */
  #own: OwnValues = { ip: "", ip_used: null, hostname: null, domain: null };

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
    const own = this.#own;
    own.ip = ip;
    own.ip_used = ipUsed;
    own.hostname = hostname;
    own.domain = domain;
    let flags = key < 0 ? -1 : this.sink.addKnown(rowIndex, record, own, key);
    if (flags < 0) {
      // A new key's values, composed once: its later rows bring their own.
      const enrichment = composeFinished(
        ip,
        { place: this.place(place), network: this.network(network) },
        own,
        this.options,
      );
      enrichment.ip_used = ipUsed;
      flags = (enrichment.success ? SUCCESS : 0) |
        (enrichment.ispFiltered ? FILTERED : 0);
      this.#handOn(rowIndex, record, enrichment, key);
    }
    const counters = this.counters;
    counters.processed++;
    if (flags & SUCCESS) counters.successful++;
    else counters.failed++;
    if (flags & FILTERED) counters.filtered++;
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
    this.sink.addRow(row, key);
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
  }
}
