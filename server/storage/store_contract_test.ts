// The JobStore and ChunkProgressStore contract against SQLite (a temp file) and PostgreSQL (a
// throwaway server, a fresh database per test).
import { join } from "node:path";
import { startPostgres } from "../../tests/helpers/postgres.ts";
import { PgStore } from "./pg/pg_store.ts";
import { SqliteChunkProgress } from "./sqlite_chunks.ts";
import { Store } from "./store.ts";
import {
  type OpenedStore,
  storeContract,
} from "../../tests/contracts/store_contract.ts";
import { storeContractOwners } from "../../tests/contracts/store_contract_owners.ts";

const sqlite = async (): Promise<OpenedStore> => {
  const dir = await Deno.makeTempDir({ prefix: "store-contract-" });
  const store = new Store(join(dir, "test.db"), { check: true });
  return {
    store,
    chunks: new SqliteChunkProgress(store),
    async close() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
};
storeContract("sqlite", sqlite);
storeContractOwners("sqlite", sqlite);

const pg = await startPostgres("store");
let databases = 0;
const postgres = async (): Promise<OpenedStore> => {
  const url = await pg.createDatabase(`store_${++databases}`);
  const store = await PgStore.open(url, 2);
  return { store, chunks: store.chunkProgress, close: () => store.close() };
};
storeContract("postgres", postgres);
storeContractOwners("postgres", postgres);

Deno.test({
  name: "postgres: stop the server",
  sanitizeResources: false,
  fn: () => pg.stop(),
});
