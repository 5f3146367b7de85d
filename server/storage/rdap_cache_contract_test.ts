// The RdapCache contract against SQLite (a temp file, one Store per cache as
// job workers open it) and PostgreSQL (a throwaway server, a fresh database
// per test, one connection pool per cache as replicas have).
import { join } from "node:path";
import postgres from "postgres";
import { startPostgres } from "../../tests/helpers/postgres.ts";
import { PgRdapCache } from "./pg/pg_rdap_cache.ts";
import { PgStore } from "./pg/pg_store.ts";
import { SqliteRdapCache } from "./rdap_cache.ts";
import {
  type OpenedCacheStorage,
  rdapCacheContract,
} from "../../tests/contracts/rdap_cache_contract.ts";
import { Store } from "./store.ts";

rdapCacheContract("sqlite", async (): Promise<OpenedCacheStorage> => {
  const dir = await Deno.makeTempDir({ prefix: "rdap-cache-" });
  const stores: Store[] = [];
  return {
    cache(options) {
      const store = new Store(join(dir, "test.db"));
      stores.push(store);
      return new SqliteRdapCache(store.db, options);
    },
    async close() {
      for (const store of stores) store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
});

const pg = await startPostgres("rdap");
let databases = 0;
rdapCacheContract("postgres", async (): Promise<OpenedCacheStorage> => {
  const url = await pg.createDatabase(`rdap_${++databases}`);
  // The store brings the schema (the cache's table with it) up to date.
  await (await PgStore.open(url, 1)).close();
  const pools: postgres.Sql[] = [];
  return {
    cache(options) {
      const sql = postgres(url, { max: 2, onnotice: () => {} });
      pools.push(sql);
      return new PgRdapCache(sql, options);
    },
    async close() {
      for (const sql of pools) await sql.end({ timeout: 5 });
    },
  };
});

Deno.test({
  name: "postgres: stop the server",
  sanitizeResources: false,
  fn: () => pg.stop(),
});
