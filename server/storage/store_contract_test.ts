// The JobStore contract against SQLite (a temp file) and PostgreSQL (a
// throwaway server, a fresh database per test).
import { join } from "node:path";
import { startPostgres } from "../../tests/helpers/postgres.ts";
import { PgStore } from "./pg/pg_store.ts";
import { Store } from "./store.ts";
import { storeContract } from "./store_contract.ts";

storeContract("sqlite", async () => {
  const dir = await Deno.makeTempDir({ prefix: "store-contract-" });
  const store = new Store(join(dir, "test.db"), { check: true });
  return {
    store,
    async close() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
});

const pg = await startPostgres("store");
let databases = 0;
storeContract("postgres", async () => {
  const url = await pg.createDatabase(`store_${++databases}`);
  const store = await PgStore.open(url, 2);
  return { store, close: () => store.close() };
});

Deno.test({
  name: "postgres: stop the server",
  sanitizeResources: false,
  fn: () => pg.stop(),
});
