// RDAP answers kept by the address range they apply to, so one answer
// serves every later address of its block, in this job and later ones.
// Keys are fixed-width hex text per family (see ip_span.ts), which SQLite
// compares in numeric order. Every stored range lies inside the asked
// address's reuse block (ip_span.ts: REUSE_PREFIX), so a lookup scans the
// primary key index over one block only, however large the cache grows.
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
  /** A 404 is kept for less: registries fill gaps. */
  notFoundMaxAgeDays?: number;
  now?: () => number;
}

type Row = Record<string, string | number | null>;

export class RdapCache {
  readonly #db: DatabaseSync;
  readonly #maxAgeMs: number;
  readonly #notFoundMaxAgeMs: number;
  readonly #now: () => number;
  #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, options: RdapCacheOptions) {
    this.#db = db;
    this.#maxAgeMs = options.maxAgeDays * DAY_MS;
    this.#notFoundMaxAgeMs = Math.min(
      options.notFoundMaxAgeDays ?? 1,
      options.maxAgeDays,
    ) * DAY_MS;
    this.#now = options.now ?? Date.now;
  }

  #sql(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * The most specific cached range holding the address, when still fresh.
   * A stale most-specific entry is a miss (it is asked again), never a
   * reason to fall back to a broader, less accurate range.
   */
  lookup(address: Address): CachedNetwork | null {
    const key = addressKey(address.family, address.value);
    const floor = addressKey(address.family, reuseBlock(address).start);
    // Ranges are nested or disjoint: the containing one with the highest
    // start (then the lowest end) is the most specific.
    const row = this.#sql(
      `SELECT * FROM rdap_networks
        WHERE family = ? AND start_key >= ? AND start_key <= ? AND end_key >= ?
        ORDER BY start_key DESC, end_key ASC LIMIT 1`,
    ).get(address.family, floor, key, key) as Row | undefined;
    if (!row) return null;
    const cached = toCached(row);
    const maxAge = cached.registration
      ? this.#maxAgeMs
      : this.#notFoundMaxAgeMs;
    return this.#now() - cached.fetchedAt < maxAge ? cached : null;
  }

  /**
   * Keeps the answer to a query for `asked`: `network` (null for a 404,
   * which covers the whole reuse block) cut to the asked address's reuse
   * block, replacing an older answer for the same range. A network that
   * does not hold the asked address is not kept (it would answer wrongly);
   * returns whether anything was kept.
   */
  put(
    asked: Address,
    network: Span | null,
    registration: Registration | null,
  ): boolean {
    const block = reuseBlock(asked);
    const span = network ? intersect(network, block) : block;
    if (!span || !contains(span, asked)) return false;
    this.#sql(
      `INSERT OR REPLACE INTO rdap_networks
        (family, start_key, end_key, fetched_at, registration)
        VALUES (?, ?, ?, ?, ?)`,
    ).run(
      span.family,
      addressKey(span.family, span.start),
      addressKey(span.family, span.end),
      this.#now(),
      registration ? JSON.stringify(registration) : null,
    );
    return true;
  }

  /** Drops entries too old to be used; returns how many. */
  prune(): number {
    const result = this.#sql(
      "DELETE FROM rdap_networks WHERE fetched_at < ?",
    ).run(this.#now() - this.#maxAgeMs);
    return Number(result.changes);
  }

  count(): number {
    const row = this.#sql("SELECT count(*) AS n FROM rdap_networks").get() as
      | Row
      | undefined;
    return Number(row?.n ?? 0);
  }
}

function toCached(row: Row): CachedNetwork {
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
