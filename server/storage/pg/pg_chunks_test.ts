// What only PostgreSQL's chunk store does (the rest of the chunk contract
// runs on both stores, store_contract.ts): progress is announced at most 4
// times a second whichever worker's chunk commits, counted in the database;
// its sessions free the locks of a client that stopped inside a commit.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { startPostgres } from "../../../tests/helpers/postgres.ts";
import {
  counters,
  newJob,
  result,
} from "../../../tests/contracts/store_contract.ts";
import { PgStore } from "./pg_store.ts";

const pg = await startPostgres("chunks");

const PLAN = [
  { chunk: 0, start: 10, end: 100, firstRow: 0, rows: 4 },
  { chunk: 1, start: 100, end: 200, firstRow: 4, rows: 3 },
];

Deno.test("commits of all chunks announce a job's progress 4 times a second at most", async () => {
  const store = await PgStore.open(await pg.createDatabase("announce"), 3);
  try {
    const chunks = store.chunkProgress;
    const job = await store.createJob({ ...newJob(), totalIPs: 7 });
    await chunks.planChunks(job.id, PLAN);
    await store.setStatus(job.id, "processing", ["pending"]);
    for (const chunk of [0, 1]) {
      await chunks.startChunk(job.id, chunk, `run${chunk}`, `w${chunk}`);
    }
    const commit = (chunk: number, done: number) =>
      chunks.commitChunk({
        jobId: job.id,
        chunk,
        run: `run${chunk}`,
        counters: counters(
          Array.from({ length: done }, (_, i) =>
            result(PLAN[chunk].firstRow + i)),
        ),
        last: false,
        worker: `w${chunk}`,
      });
    // Two chunks (two workers) committing at once: one announcement.
    const first = await commit(0, 1);
    const second = await commit(1, 1);
    assertEquals([first.announce, second.announce], [true, false]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assertEquals((await commit(1, 2)).announce, true);
    assertEquals((await store.getJob(job.id))!.processedIPs, 3);
  } finally {
    await store.close();
  }
});

// A worker stopped inside a commit keeps its rows locked until the server
// ends its session; the worker given its chunk must not give up first.
Deno.test("the store's sessions end when left idle in a transaction, before a lock wait gives up", async () => {
  const store = await PgStore.open(await pg.createDatabase("held"), 1);
  try {
    const [{ idle, lock }] = await store.sql`SELECT
      current_setting('idle_in_transaction_session_timeout')::interval AS idle,
      current_setting('lock_timeout')::interval AS lock`;
    const seconds = (text: string) =>
      text.split(":").reduce((sum, part) => sum * 60 + Number(part), 0);
    ok(seconds(idle) > 0, `idle_in_transaction_session_timeout ${idle}`);
    ok(seconds(idle) < seconds(lock), `${idle} < ${lock}`);
  } finally {
    await store.close();
  }
});

Deno.test({
  name: "postgres: stop the server",
  sanitizeResources: false,
  fn: () => pg.stop(),
});
