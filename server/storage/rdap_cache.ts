// RDAP answers kept by the address range they apply to, so one answer
// serves every later address of its block, in this job and later ones.
// RdapCache is what registration lookups use; SqliteRdapCache keeps it in
// the embedded database, PgRdapCache (pg/pg_rdap_cache.ts) in PostgreSQL,
// where every replica shares it. Both store the same rows: keys are
// fixed-width hex text per family (see ip_span.ts), which compares in
// numeric order. Every stored range lies inside the asked address's reuse
// block (ip_span.ts: REUSE_PREFIX), so a lookup scans the primary key index
// over one block only, however large the cache grows.
import type { DatabaseSync, StatementSync } from "node:sqlite";
import {
  type Address,
  addressKey,
  contains,
  intersect,
  keyValue,
  reuseBlock,
  type Span,
} from "../rdap/ip_span.ts";
import type { Registration } from "../rdap/rdap_parser.ts";

/** The migration step that creates the cache (appended in migrations.ts). */
export const RDAP_CACHE_SCHEMA = `
  CREATE TABLE rdap_networks (
    family INTEGER NOT NULL,
    start_key TEXT NOT NULL,
    end_key TEXT NOT NULL,
    fetched_at INTEGER NOT NULL,
    registration TEXT,
    PRIMARY KEY (family, start_key, end_key)
  ) WITHOUT ROWID;
  CREATE INDEX rdap_networks_fetched ON rdap_networks(fetched_at);
`;

const DAY_MS = 86_400_000;

/** A 404 is kept for less: registries fill gaps. */
const NOT_FOUND_MAX_AGE_DAYS = 1;

export interface CachedNetwork {
  span: Span;
  /** ms since the epoch. */
  fetchedAt: number;
  /** null: the registry answered 404 for this range. */
  registration: Registration | null;
}

export interface RdapCacheOptions {
  /** RDAP_CACHE_DAYS: answers older than this are asked again. */
  maxAgeDays: number;
  now?: () => number;
}

/** Registration answers by address range (see the top of this file). */
export interface RdapCache {
  /**
   * The most specific cached range holding the address, when still fresh.
   * A stale most-specific entry is a miss (it is asked again), never a
   * reason to fall back to a broader, less accurate range.
   */
  lookup(address: Address): Promise<CachedNetwork | null>;
  /**
   * Keeps the answer to a query for `asked`: `network` (null for a 404,
   * which covers the whole reuse block) cut to the asked address's reuse
   * block, replacing an older answer for the same range. A network that
   * does not hold the asked address is not kept (it would answer wrongly);
   * resolves to whether anything was kept.
   */
  put(
    asked: Address,
    network: Span | null,
    registration: Registration | null,
  ): Promise<boolean>;
  /** Drops entries too old to be used; resolves to how many. */
  prune(): Promise<number>;
  count(): Promise<number>;
}

/** A stored row, as both adapters read it back. */
export type CacheRow = Record<string, string | number | bigint | null>;

/** The expiry rules both adapters share. */
export class CachePolicy {
  readonly maxAgeMs: number;
  readonly notFoundMaxAgeMs: number;
  readonly now: () => number;

  constructor(options: RdapCacheOptions) {
    this.maxAgeMs = options.maxAgeDays * DAY_MS;
    this.notFoundMaxAgeMs =
      Math.min(NOT_FOUND_MAX_AGE_DAYS, options.maxAgeDays) * DAY_MS;
    this.now = options.now ?? Date.now;
  }

  /** The row as a CachedNetwork, or null when it is too old to use. */
  fresh(row: CacheRow | undefined): CachedNetwork | null {
    if (!row) return null;
    const cached = toCached(row);
    const maxAge = cached.registration ? this.maxAgeMs : this.notFoundMaxAgeMs;
    return this.now() - cached.fetchedAt < maxAge ? cached : null;
  }
}

/** The keys a lookup scans: from its reuse block's start to the address. */
export function lookupKeys(address: Address) {
  return {
    key: addressKey(address.family, address.value),
    floor: addressKey(address.family, reuseBlock(address).start),
  };
}

/** The row `put` stores, or null when the network does not hold `asked`. */
export function rowToKeep(
  asked: Address,
  network: Span | null,
  registration: Registration | null,
  fetchedAt: number,
) {
  const block = reuseBlock(asked);
  const span = network ? intersect(network, block) : block;
  if (!span || !contains(span, asked)) return null;
  return {
    family: span.family,
    start_key: addressKey(span.family, span.start),
    end_key: addressKey(span.family, span.end),
    fetched_at: fetchedAt,
    registration: registration ? JSON.stringify(registration) : null,
  };
}

export class SqliteRdapCache implements RdapCache {
  readonly #db: DatabaseSync;
  readonly #policy: CachePolicy;
  #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, options: RdapCacheOptions) {
    this.#db = db;
    this.#policy = new CachePolicy(options);
  }

  #sql(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  lookup(address: Address): Promise<CachedNetwork | null> {
    const { key, floor } = lookupKeys(address);
    // Ranges are nested or disjoint: the containing one with the highest
    // start (then the lowest end) is the most specific.
    const row = this.#sql(
      `SELECT * FROM rdap_networks
        WHERE family = ? AND start_key >= ? AND start_key <= ? AND end_key >= ?
        ORDER BY start_key DESC, end_key ASC LIMIT 1`,
    ).get(address.family, floor, key, key) as CacheRow | undefined;
    return Promise.resolve(this.#policy.fresh(row));
  }

  put(
    asked: Address,
    network: Span | null,
    registration: Registration | null,
  ): Promise<boolean> {
    const row = rowToKeep(asked, network, registration, this.#policy.now());
    if (!row) return Promise.resolve(false);
    const names = Object.keys(row);
    this.#sql(
      `INSERT OR REPLACE INTO rdap_networks (${names.join(", ")})
        VALUES (${names.map(() => "?").join(", ")})`,
    ).run(...Object.values(row));
    return Promise.resolve(true);
  }

  prune(): Promise<number> {
    const result = this.#sql(
      "DELETE FROM rdap_networks WHERE fetched_at < ?",
    ).run(this.#policy.now() - this.#policy.maxAgeMs);
    return Promise.resolve(Number(result.changes));
  }

  count(): Promise<number> {
    const row = this.#sql("SELECT count(*) AS n FROM rdap_networks").get() as
      | CacheRow
      | undefined;
    return Promise.resolve(Number(row?.n ?? 0));
  }
}

function toCached(row: CacheRow): CachedNetwork {
  const family = Number(row.family) as 4 | 6;
  return {
    span: {
      family,
      start: keyValue(String(row.start_key)),
      end: keyValue(String(row.end_key)),
    },
    fetchedAt: Number(row.fetched_at),
    registration: row.registration === null
      ? null
      : JSON.parse(String(row.registration)) as Registration,
  };
}
