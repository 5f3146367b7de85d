import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
} from "node:assert/strict";
import { startPostgres } from "../../../tests/helpers/postgres.ts";
import { isConnectionLost, isLockNotAvailable } from "./connection_lost.ts";
import { pgClient, transaction } from "./pg_connect.ts";

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

// With sql.begin, the ROLLBACK sent after the cut threw an uncaught
// TypeError from postgres.js's write timer, which fails this test (and ended
// a worker process).
Deno.test(
  "transaction: PostgreSQL restarted under it: a lost connection, then the client works",
  OPTIONS,
  async () => {
    const pg = await startPostgres("cut");
    const sql = pgClient(pg.url, { max: 2, onnotice: () => {} });
    try {
      await sql`CREATE TABLE t (a int)`;
      const cut = transaction(sql, async (tx) => {
        await tx`INSERT INTO t VALUES (1)`;
        await tx`SELECT pg_sleep(30)`;
      }).then(() => null, (error) => error);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await pg.restart();
      const error = await cut;
      ok(isConnectionLost(error), String(error));
      await transaction(sql, (tx) => tx`INSERT INTO t VALUES (2)`);
      const rows = await sql`SELECT a FROM t ORDER BY a`;
      assertEquals(rows.map((row) => row.a), [2]);
      // A statement's own error still rolls back and is raised as it was.
      await rejects(
        transaction(sql, async (tx) => {
          await tx`INSERT INTO t VALUES (3)`;
          await tx`SELECT 1/0`;
        }),
        (thrown) =>
          !isConnectionLost(thrown) && /division by zero/.test(
            String(thrown),
          ),
      );
      assertEquals((await sql`SELECT count(*)::int AS n FROM t`)[0].n, 1);
    } finally {
      await sql.end({ timeout: 1 });
      await pg.stop();
    }
  },
);

// A client stopped inside a transaction (SIGSTOP), as seen from the server:
// its session sits idle in the transaction with the rows it locked.
Deno.test(
  "transaction: a session left idle in it is ended by the server, its locks freed; a lock not had in time is told apart",
  OPTIONS,
  async () => {
    const pg = await startPostgres("idle");
    const stopped = pgClient(pg.url, { max: 1, onnotice: () => {} });
    const other = pgClient(pg.url, {
      max: 1,
      onnotice: () => {},
      connection: { lock_timeout: 100 },
    });
    try {
      await other`CREATE TABLE t (a int)`;
      await other`INSERT INTO t VALUES (1)`;
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => locked = resolve);
      let checked!: () => void;
      const refusedSeen = new Promise<void>((resolve) => checked = resolve);
      const held = transaction(stopped, async (tx) => {
        await tx`SELECT a FROM t FOR UPDATE`;
        await tx`UPDATE t SET a = 2`;
        locked();
        await refusedSeen;
        await tx`SET LOCAL idle_in_transaction_session_timeout = 100`;
        // Stopped here for good (a statement sent after the connection
        // closed would hit postgres.js's null socket: pg_connect.ts).
        await new Promise(() => {});
      }).then(() => null, (error) => error);
      await holding;
      // Held: a lock not had within lock_timeout, not a lost connection.
      const refused = await other`SELECT a FROM t FOR UPDATE`.then(
        () => null,
        (error) => error,
      );
      ok(isLockNotAvailable(refused), String(refused));
      ok(!isConnectionLost(refused));
      checked();
      // Freed once the server ends the idle session, which the client
      // sees as its connection lost; nothing of it was committed.
      const error = await held;
      ok(isConnectionLost(error), String(error));
      const rows = await other.begin((tx) => tx`SELECT a FROM t FOR UPDATE`);
      assertEquals(rows.map((row) => row.a), [1]);
    } finally {
      await stopped.end({ timeout: 1 });
      await other.end({ timeout: 1 });
      await pg.stop();
    }
  },
);

Deno.test("isConnectionLost: the connection's errors, not the statement's", () => {
  for (
    const code of [
      "CONNECTION_CLOSED",
      "ECONNREFUSED",
      "57P01",
      "57P03",
      "08006",
      "25P03",
    ]
  ) {
    ok(isConnectionLost(Object.assign(new Error(code), { code })), code);
  }
  for (
    const error of [new Error("x"), null, "57P01", { code: "22012" }, {
      code: "23505",
    }]
  ) {
    ok(!isConnectionLost(error), String(error));
  }
});
