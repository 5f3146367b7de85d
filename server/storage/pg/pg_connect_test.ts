import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { startPostgres } from "../../../tests/helpers/postgres.ts";
import { pgClient } from "./pg_connect.ts";

const OPTIONS = { sanitizeOps: false, sanitizeResources: false };

Deno.test(
  "pgClient: hosts tried in order, COPY in and out",
  OPTIONS,
  async () => {
    const pg = await startPostgres("connect");
    // Port 1 on loopback refuses; the second host is the server.
    const url = `postgres://postgres@127.0.0.1:1,127.0.0.1:${pg.port}/connect`;
    const sql = pgClient(url, { max: 1, onnotice: () => {} });
    try {
      await sql`CREATE TABLE t (a int, b text)`;
      const writable = await sql`COPY t (a, b) FROM STDIN`.writable();
      await new Promise<void>((resolve, reject) => {
        writable.on("error", reject);
        writable.end("1\tone\n2\ttwo\n", resolve);
      });
      const rows = await sql`SELECT a, b FROM t ORDER BY a`;
      assertEquals(rows.map((r) => [r.a, r.b]), [[1, "one"], [2, "two"]]);
    } finally {
      await sql.end();
      await pg.stop();
    }
  },
);

Deno.test("pgClient: no host answering is an error", OPTIONS, async () => {
  const sql = pgClient("postgres://postgres@127.0.0.1:1/none", {
    max: 1,
    connect_timeout: 2,
  });
  try {
    await rejects(sql`SELECT 1`, /ECONNREFUSED|refused/i);
  } finally {
    await sql.end();
  }
});
