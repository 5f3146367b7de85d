// RDAP answers kept by the address range they apply to, so one answer
// serves every later address of its block, in this job and later ones.
// Keys are fixed-width hex text per family (see ip_span.ts), which SQLite
// compares in numeric order; the primary key index serves the lookup.
import type { DatabaseSync, StatementSync } from "node:sqlite";
import {
  type Address,
  addressKey,
  keyValue,
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
    // Ranges are nested or disjoint: the containing one with the highest
    // start (then the lowest end) is the most specific.
    const row = this.#sql(
      `SELECT * FROM rdap_networks
        WHERE family = ? AND start_key <= ? AND end_key >= ?
        ORDER BY start_key DESC, end_key ASC LIMIT 1`,
    ).get(address.family, key, key) as Row | undefined;
    if (!row) return null;
    const cached = toCached(row);
    const maxAge = cached.registration
      ? this.#maxAgeMs
      : this.#notFoundMaxAgeMs;
    return this.#now() - cached.fetchedAt < maxAge ? cached : null;
  }

  /** Keeps an answer (null: 404) for the range, replacing an older one. */
  put(span: Span, registration: Registration | null): void {
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
