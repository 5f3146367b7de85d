// What a job asks: the registration of each address, from the database
// cache when a fresh answer covers it, else one RDAP query. Queries for the
// same block are not sent twice at once: a second address waits for the
// first query and then finds its answer in the cache. Network failures
// give null (the row keeps its AS-based answer) and are counted; after a
// run of failures in a row the rest of the job stops asking, so a dead
// registry costs a few time-outs, not one per address.
import type { RdapCache } from "../storage/rdap_cache.ts";
import {
  type Address,
  addressKey,
  parseAddress,
  reuseBlock,
  type Span,
} from "./ip_span.ts";
import type { RdapAnswer } from "./rdap_client.ts";
import { type Registration, registrationSpan } from "./rdap_parser.ts";

export interface RdapQuerier {
  query(ip: string): Promise<RdapAnswer>;
}

export interface RegistrationLookupOptions {
  client: RdapQuerier;
  cache: RdapCache;
  /** Failures (time-outs, errors) in a row after which asking stops. */
  failureLimit?: number;
}

export class RegistrationLookup {
  /** How its lookups ended. */
  readonly outcomes = {
    /** Queries a registry answered with a network. */
    answered: 0,
    /** Addresses answered from the cache (this job's queries or earlier ones). */
    cached: 0,
    /** Queries answered 404: no network registered. */
    notFound: 0,
    timedOut: 0,
    failed: 0,
    /** Addresses not asked after too many failures in a row. */
    skipped: 0,
  };
  /** The last failure's words, for the job's log. */
  lastFailure: string | null = null;
  readonly #client: RdapQuerier;
  readonly #cache: RdapCache;
  readonly #failureLimit: number;
  #failuresInARow = 0;
  /** Per block: its query on the way, resolving to "it was answered". */
  #inFlight = new Map<string, Promise<boolean>>();
  /** Per block whose query this lookup finished: whether it was answered. */
  #finished = new Map<string, boolean>();

  constructor(options: RegistrationLookupOptions) {
    this.#client = options.client;
    this.#cache = options.cache;
    this.#failureLimit = options.failureLimit ?? 5;
  }

  /** True once failures in a row have stopped further queries. */
  get gaveUp(): boolean {
    return this.#failuresInARow >= this.#failureLimit;
  }

  /** The registration holding `ip`, or null (none, or not known now). */
  async lookup(ip: string): Promise<Registration | null> {
    const address = parseAddress(ip);
    if (!address) {
      this.outcomes.failed++;
      return null;
    }
    const block = reuseBlock(address);
    const blockKey = `${block.family}:${addressKey(block.family, block.start)}`;
    for (;;) {
      // The cache answers after a wait: a query for the block may have
      // started or ended meanwhile, and its answer is then read, not asked.
      const finishedBefore = this.#finished.has(blockKey);
      const cached = await this.#fromCache(address);
      if (cached !== undefined) {
        this.outcomes.cached++;
        return cached;
      }
      const pending = this.#inFlight.get(blockKey);
      if (!pending) {
        const finished = this.#finished.get(blockKey);
        if (finishedBefore || finished === undefined) break;
        if (finished) continue;
        this.outcomes.skipped++;
        return null;
      }
      // The block's query failed: this address would fail the same way,
      // so a dead registry costs one time-out per block, not per address.
      if (!await pending) {
        this.outcomes.skipped++;
        return null;
      }
    }
    if (this.gaveUp) {
      this.outcomes.skipped++;
      return null;
    }
    let result: Registration | null = null;
    const failuresBefore = this.#failureCount();
    const query = this.#ask(ip, address).then((r) => {
      result = r;
      const answered = this.#failureCount() === failuresBefore;
      this.#finished.set(blockKey, answered);
      return answered;
    });
    this.#inFlight.set(blockKey, query);
    try {
      await query;
    } finally {
      this.#inFlight.delete(blockKey);
    }
    return result;
  }

  #failureCount(): number {
    return this.outcomes.timedOut + this.outcomes.failed;
  }

  /** undefined: not cached (or the cache cannot be read just now). */
  async #fromCache(
    address: Address,
  ): Promise<Registration | null | undefined> {
    try {
      const cached = await this.#cache.lookup(address);
      return cached ? cached.registration : undefined;
    } catch {
      return undefined;
    }
  }

  async #ask(ip: string, address: Address): Promise<Registration | null> {
    const answer = await this.#client.query(ip);
    switch (answer.kind) {
      case "found": {
        this.outcomes.answered++;
        this.#failuresInARow = 0;
        const registration = answer.registration;
        // Cut to the asked address's block; not kept if it does not hold it.
        await this.#keep(
          address,
          registrationSpan(registration),
          registration,
        );
        return registration;
      }
      case "notFound":
        this.outcomes.notFound++;
        this.#failuresInARow = 0;
        await this.#keep(address, null, null);
        return null;
      case "timeout":
        this.outcomes.timedOut++;
        this.#failuresInARow++;
        this.lastFailure = `${this.#clientName()} did not answer in time`;
        return null;
      case "failed":
        this.outcomes.failed++;
        this.#failuresInARow++;
        this.lastFailure = answer.reason;
        return null;
    }
  }

  async #keep(
    address: Address,
    network: Span | null,
    registration: Registration | null,
  ): Promise<void> {
    try {
      await this.#cache.put(address, network, registration);
    } catch {
      // A busy or read-only database costs a repeat query, not the row.
    }
  }

  #clientName(): string {
    const base = (this.#client as { baseUrl?: string }).baseUrl;
    return base ? `the RDAP server ${base}` : "the RDAP server";
  }
}
