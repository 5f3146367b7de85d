// A database at the base schema (as c7df1dc left one) gains the later steps on
// opening; one older than the base is refused in words.
import {
  deepStrictEqual as assertEquals,
  rejects as assertRejects,
} from "node:assert/strict";
import postgres from "postgres";
import { startPostgres } from "../../../tests/helpers/postgres.ts";
import { PG_BASE_SCHEMA, PG_BASE_VERSION, PG_MIGRATIONS } from "./pg_schema.ts";
import { PgStore } from "./pg_store.ts";

/** A database at `version`, made with the base schema. */
async function databaseAt(url: string, version: number): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`CREATE TABLE schema_version (version integer NOT NULL)`;
    await sql.unsafe(PG_BASE_SCHEMA);
    await sql`INSERT INTO schema_version VALUES (${version})`;
  } finally {
    await sql.end();
  }
}

Deno.test({
  name: "postgres: a database at the base schema gains the later steps",
  sanitizeResources: false,
  async fn() {
    const pg = await startPostgres("base");
    try {
      await databaseAt(pg.url, PG_BASE_VERSION);
      const store = await PgStore.open(pg.url, 2);
      try {
        const [{ version }] = await store
          .sql`SELECT version FROM schema_version`;
        assertEquals(version, PG_BASE_VERSION + PG_MIGRATIONS.length);
        const columns = await store.sql`SELECT column_name FROM
          information_schema.columns WHERE table_name = 'jobs'
          AND column_name IN ('data_version', 'dialect')`;
        assertEquals(columns.length, 2);
      } finally {
        await store.close();
      }
    } finally {
      await pg.stop();
    }
  },
});

Deno.test({
  name: "postgres: a database older than the base schema is refused",
  // The refused store's pool ends with the server.
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const pg = await startPostgres("older");
    try {
      await databaseAt(pg.url, PG_BASE_VERSION - 1);
      await assertRejects(
        () => PgStore.open(pg.url, 2),
        /early development version/,
      );
    } finally {
      await pg.stop();
    }
  },
});
