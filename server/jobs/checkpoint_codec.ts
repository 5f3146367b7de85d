// A job's checkpoint as it travels from the job worker to the result
// writer's thread. Copying values between threads costs the job worker time
// per value, so a checkpoint is compact: each row is its fields, its
// address, and the numbers of its place and organisation; a place or
// organisation travels once per job, the first time a row refers to it. The
// writer's side builds the results from them (CheckpointReader).
// Types and compose.ts only: the writer's thread loads no lookup code.
// (Over 300 lines: both sides of the one wire format, kept together.)
import type { Failure, FailureKind } from "../../shared/failures.ts";
import type { HostnameLookups } from "../../shared/wire.ts";
import {
  composeFinished,
  failedEnrichment,
  type Network,
  type PlaceFields,
} from "../enrichment/compose.ts";
import type { Place } from "../enrichment/geo_provider.ts";
import type { NetworkKind } from "../classification/decide.ts";
import type { EnrichOptions } from "../enrichment/types.ts";
import type { Counters, StoredResult } from "../storage/result_rows.ts";
import { copyCounters } from "../storage/result_rows.ts";

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
  /** The job's last checkpoint: its summary counts are written with it. */
  last?: boolean;
  /** Host-name lookups whose answers these rows are the first to store. */
  hostnameLookups?: HostnameLookups;
  /**
   * No row from here on refers to a place or organisation sent before
   * this checkpoint: the reader lets them go (numbers go on, never reused).
   */
  startOver?: boolean;
}

const PLACE_WIDTH = 6;
// org, AS text, type, filtered, reason, company, the registration four,
// then the classification's confidence.
const NETWORK_WIDTH = 11;
/**
 * After a row's fields: ip, place, organisation, hostname, domain, failure
 * kind, failure range, ip_used (which address of the cell, and why).
 */
const ROW_TAIL = 8;
/** A place or organisation number for "none". */
const NONE = -1;
/** The place number of a row whose address failed (invalid, private). */
const FAILED = -2;

/**
 * Numbers the distinct values given to it, by identity; after forget(),
 * numbers go on from where they were, for the values given from then on.
 */
class Interned<T> {
  #ids = new Map<T, number>();
  #values: T[] = [];
  #base = 0;

  /** Values numbered since the last forget(). */
  get size(): number {
    return this.#values.length;
  }

  id(value: T): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#base + this.#values.length;
      this.#values.push(value);
      this.#ids.set(value, id);
    }
    return id;
  }

  get(id: number): T {
    return this.#values[id - this.#base];
  }

  /** The `i`th value numbered since the last forget(). */
  at(i: number): T {
    return this.#values[i];
  }

  forget(): void {
    this.#base += this.#values.length;
    this.#ids.clear();
    this.#values = [];
  }
}

/** The job worker's side: rows into checkpoints. */
export class CheckpointBuilder {
  /** Place numbers by Place.key: no place object is kept. */
  #placeIds = new Map<number, number>();
  #placeCount = 0;
  #networks = new Interned<Network>();
  #newPlaces: FlatValue[] = [];
  #sentNetworks = 0;
  #rows: FlatValue[] = [];
  #count = 0;
  #startOver = false;

  constructor(readonly jobId: number) {}

  /** Rows added since the last checkpoint was taken. */
  get count(): number {
    return this.#count;
  }

  /** A number for a place (kept for the job), or NONE. */
  placeId(place: Place | null): number {
    if (!place) return NONE;
    let id = this.#placeIds.get(place.key);
    if (id === undefined) {
      id = this.#placeCount++;
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

  /** The organisation a number stands for (NONE: null). */
  network(id: number): Network | null {
    return id === NONE ? null : this.#networks.get(id);
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
    ipUsed: string | null = null,
  ): void {
    this.#count++;
    const rows = this.#rows;
    rows.push(rowIndex, row.length);
    for (const field of row) rows.push(field);
    rows.push(ip, place, network, hostname, domain, null, null, ipUsed);
  }

  /** A row whose address failed, with the reason. */
  addFailed(
    rowIndex: number,
    row: string[],
    ip: string,
    failure: Failure,
    ipUsed: string | null = null,
  ) {
    this.#count++;
    const rows = this.#rows;
    rows.push(rowIndex, row.length);
    for (const field of row) rows.push(field);
    rows.push(
      ip,
      FAILED,
      NONE,
      null,
      null,
      failure.kind,
      failure.range ?? null,
      ipUsed,
    );
  }

  /**
   * Forgets the places and organisations numbered so far, here and (with
   * the next checkpoint) in the reader, so that a long job's tables stay
   * bounded. Call between checkpoints, with no row in flight that refers
   * to them.
   */
  startOver(): void {
    if (this.#count > 0) throw new Error("start over inside a checkpoint");
    this.#placeIds.clear();
    this.#newPlaces = [];
    this.#networks.forget();
    this.#sentNetworks = 0;
    this.#startOver = true;
  }

  /** The checkpoint of the rows added since the last one taken. */
  takeCheckpoint(last = false): Checkpoint {
    const places = this.#newPlaces;
    this.#newPlaces = [];
    const networks: FlatValue[] = [];
    for (; this.#sentNetworks < this.#networks.size; this.#sentNetworks++) {
      const n = this.#networks.at(this.#sentNetworks);
      networks.push(
        n.org,
        n.asnText,
        n.kind?.type ?? null,
        n.kind ? n.kind.filtered : null,
        n.kind?.reason ?? null,
        n.company ?? null,
        n.registration?.registered_org ?? null,
        n.registration?.registered_network ?? null,
        n.registration?.registered_country ?? null,
        n.registration?.abuse_email ?? null,
        n.kind?.confidence ?? null,
      );
    }
    const checkpoint = {
      jobId: this.jobId,
      places,
      networks,
      rows: this.#rows,
      ...(last ? { last } : {}),
      ...(this.#startOver ? { startOver: true } : {}),
    };
    this.#startOver = false;
    this.#rows = [];
    this.#count = 0;
    return checkpoint;
  }
}

/**
 * The writer's side: checkpoints into results and counters, composed by the
 * same rules as the engine's lookups (compose.ts).
 */
export class CheckpointReader {
  readonly counters: Counters;
  /** Places and organisations by number, as the checkpoints sent them. */
  #places: PlaceFields[] = [];
  #networks: Network[] = [];
  /** The numbers of #places[0] and #networks[0] (see startOver). */
  #placeBase = 0;
  #networkBase = 0;
  /**
   * One copy of each place name: each place arrives with its own copies of
   * its strings ("United States" once per city), and a job's places are
   * kept to its end (a million rows: some 300,000 places).
   */
  #names = new Map<string, string>();

  #name(value: FlatValue): string | null {
    if (typeof value !== "string") return value as null;
    const known = this.#names.get(value);
    if (known !== undefined) return known;
    this.#names.set(value, value);
    return value;
  }

  constructor(readonly start: JobStart) {
    this.counters = copyCounters(start.counters);
  }

  #learn(checkpoint: Checkpoint): void {
    if (checkpoint.startOver) {
      this.#placeBase += this.#places.length;
      this.#networkBase += this.#networks.length;
      this.#places = [];
      this.#networks = [];
      this.#names.clear();
    }
    const places = checkpoint.places;
    for (let at = 0; at < places.length; at += PLACE_WIDTH) {
      this.#places.push({
        country: this.#name(places[at]),
        country_code: this.#name(places[at + 1]),
        region: this.#name(places[at + 2]),
        city: this.#name(places[at + 3]),
        latitude: places[at + 4] as number | null,
        longitude: places[at + 5] as number | null,
      });
    }
    const networks = checkpoint.networks;
    for (let at = 0; at < networks.length; at += NETWORK_WIDTH) {
      const type = networks[at + 2] as NetworkKind | null;
      this.#networks.push({
        org: networks[at] as string,
        asnText: networks[at + 1] as string,
        asn: null,
        // A classification exists for every known network.
        kind: type === null ? null : {
          type,
          filtered: networks[at + 3] as boolean,
          reason: networks[at + 4] as string,
          confidence: networks[at + 10] as number | null,
        },
        company: networks[at + 5] as string | null,
        registration: networks[at + 7] === null ? null : {
          registered_org: networks[at + 6] as string | null,
          registered_network: networks[at + 7] as string | null,
          registered_country: networks[at + 8] as string | null,
          abuse_email: networks[at + 9] as string | null,
        },
      });
    }
  }

  /**
   * Per result of the last read: a number that is the same for two rows
   * whose summary counts are the same (their place, organisation and
   * whether they have a host name), or -1 (a failed row, or numbers too
   * large): the summary counts rows by it (SummaryTally).
   */
  summaryKeys: number[] = [];

  /** The checkpoint's results; `counters` then counts them too. */
  read(checkpoint: Checkpoint): StoredResult[] {
    this.#learn(checkpoint);
    const { options } = this.start;
    const counters = this.counters;
    const lookups = checkpoint.hostnameLookups;
    if (lookups) {
      const total = counters.hostnameLookups ??= {
        answered: 0,
        noName: 0,
        timedOut: 0,
        skipped: 0,
      };
      total.answered += lookups.answered;
      total.noName += lookups.noName;
      total.timedOut += lookups.timedOut;
      total.skipped += lookups.skipped;
    }
    const flat = checkpoint.rows;
    const results: StoredResult[] = [];
    const keys: number[] = this.summaryKeys = [];
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
      const failureKind = flat[i + 5] as FailureKind | null;
      const failureRange = flat[i + 6] as string | null;
      const ipUsed = flat[i + 7] as string | null;
      i += ROW_TAIL;
      counters.processed++;
      if (place === FAILED) {
        const failure: Failure = { kind: failureKind! };
        if (failureRange !== null) failure.range = failureRange;
        counters.failed++;
        const failed = failedEnrichment(ip, failure);
        failed.ip_used = ipUsed;
        results.push({ rowIndex, original, enrichment: failed });
        keys.push(-1);
        continue;
      }
      const e = composeFinished(
        ip,
        {
          place: place === NONE ? null : this.#places[place - this.#placeBase],
          network: network === NONE
            ? null
            : this.#networks[network - this.#networkBase],
        },
        { hostname, domain },
        options,
      );
      e.ip_used = ipUsed;
      if (e.success) counters.successful++;
      else counters.failed++;
      if (e.ispFiltered) counters.filtered++;
      results.push({ rowIndex, original, enrichment: e });
      // composeFinished reads the host name only for whether it is there.
      keys.push(
        place + 1 < 2 ** 28 && network + 1 < 2 ** 24
          ? ((place + 1) * 2 ** 24 + network + 1) * 2 + (hostname ? 1 : 0)
          : -1,
      );
    }
    return results;
  }
}
