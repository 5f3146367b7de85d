// The RDAP cache in PostgreSQL (the table is made by pg_schema.ts), shared by
// every replica and worker process: an answer one of them fetched serves
// all. Same rows, keys and expiry as the SQLite adapter (../rdap_cache.ts);
// the key columns use the "C" collation so that hex text compares in
// numeric order whatever the database's locale.
import type postgres from "postgres";
import type { Address, Span } from "../../rdap/ip_span.ts";
import type { Registration } from "../../rdap/rdap_parser.ts";
import {
  type CachedNetwork,
  CachePolicy,
  type CacheRow,
  lookupKeys,
  type RdapCache,
  type RdapCacheOptions,
  rowToKeep,
} from "../rdap_cache.ts";

/** The migration step that creates the cache (appended in pg_schema.ts). */
export const PG_RDAP_CACHE_SCHEMA = `
  CREATE TABLE rdap_networks (
    family smallint NOT NULL,
    start_key text COLLATE "C" NOT NULL,
    end_key text COLLATE "C" NOT NULL,
    fetched_at bigint NOT NULL,
    registration text,
    PRIMARY KEY (family, start_key, end_key)
  );
  CREATE INDEX rdap_networks_fetched ON rdap_networks(fetched_at);
`;

export class PgRdapCache implements RdapCache {
  readonly #sql: postgres.Sql;
  readonly #policy: CachePolicy;

  constructor(sql: postgres.Sql, options: RdapCacheOptions) {
    this.#sql = sql;
    this.#policy = new CachePolicy(options);
  }

  async lookup(address: Address): Promise<CachedNetwork | null> {
    const { key, floor } = lookupKeys(address);
    // Ranges are nested or disjoint: the containing one with the highest
    // start (then the lowest end) is the most specific.
    const [row] = await this.#sql<CacheRow[]>`
      SELECT * FROM rdap_networks
        WHERE family = ${address.family} AND start_key >= ${floor}
          AND start_key <= ${key} AND end_key >= ${key}
        ORDER BY start_key DESC, end_key ASC LIMIT 1`;
    return this.#policy.fresh(row);
  }

  async put(
    asked: Address,
    network: Span | null,
    registration: Registration | null,
  ): Promise<boolean> {
    const row = rowToKeep(asked, network, registration, this.#policy.now());
    if (!row) return false;
    // Two replicas may keep the same range at once: the later one wins.
    await this.#sql`
      INSERT INTO rdap_networks ${this.#sql(row)}
        ON CONFLICT (family, start_key, end_key) DO UPDATE
          SET fetched_at = EXCLUDED.fetched_at,
              registration = EXCLUDED.registration`;
    return true;
  }

  async prune(): Promise<number> {
    const cutoff = this.#policy.now() - this.#policy.maxAgeMs;
    const result = await this.#sql`
      DELETE FROM rdap_networks WHERE fetched_at < ${cutoff}`;
    return result.count;
  }

  async count(): Promise<number> {
    const [row] = await this.#sql<CacheRow[]>`
      SELECT count(*) AS n FROM rdap_networks`;
    return Number(row?.n ?? 0);
  }
}
