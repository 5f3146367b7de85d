// The RDAP cache's tables arrive with the schema: a database from before the
// cache gains its table on opening, in SQLite and in PostgreSQL. (What the
// cache does is in rdap_cache_contract.ts, run against both.)
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import postgres from "postgres";
import { startPostgres } from "../../tests/helpers/postgres.ts";
import { parseAddress, parseCidr } from "../rdap/ip_span.ts";
import { MIGRATIONS } from "./migrations.ts";
import { PG_RDAP_CACHE_SCHEMA, PgRdapCache } from "./pg/pg_rdap_cache.ts";
import { PG_MIGRATIONS } from "./pg/pg_schema.ts";
import { PgStore } from "./pg/pg_store.ts";
import {
  RDAP_CACHE_SCHEMA,
  type RdapCache,
  SqliteRdapCache,
} from "./rdap_cache.ts";
import { registration } from "../../tests/contracts/rdap_cache_contract.ts";
import { Store } from "./store.ts";

async function keepsAndFinds(cache: RdapCache): Promise<void> {
  await cache.put(
    parseAddress("60.1.2.3")!,
    parseCidr("60.1.0.0/16")!,
    registration("Block", "60.1.0.0/16"),
  );
  assertEquals(
    (await cache.lookup(parseAddress("60.1.2.3")!))?.registration?.org,
    "Block",
  );
}

Deno.test("sqlite: a database from before the cache gains its table on opening", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "old.db");
  const step = MIGRATIONS.indexOf(RDAP_CACHE_SCHEMA);
  const old = new DatabaseSync(path);
  for (const migration of MIGRATIONS.slice(0, step)) old.exec(migration);
  old.exec(`PRAGMA user_version = ${step}`);
  old.close();
  const store = new Store(path);
  try {
    await keepsAndFinds(new SqliteRdapCache(store.db, { maxAgeDays: 30 }));
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "postgres: a database from before the cache gains its table on opening",
  sanitizeResources: false,
  async fn() {
    const pg = await startPostgres("old");
    try {
      const step = PG_MIGRATIONS.indexOf(PG_RDAP_CACHE_SCHEMA);
      const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
      try {
        await sql`CREATE TABLE schema_version (version integer NOT NULL)`;
        for (const migration of PG_MIGRATIONS.slice(0, step)) {
          await sql.unsafe(migration);
        }
        await sql`INSERT INTO schema_version VALUES (${step})`;
      } finally {
        await sql.end();
      }
      const store = await PgStore.open(pg.url, 2);
      try {
        await keepsAndFinds(new PgRdapCache(store.sql, { maxAgeDays: 30 }));
      } finally {
        await store.close();
      }
    } finally {
      await pg.stop();
    }
  },
});
