// A chunked job's commits on a throwaway PostgreSQL: a redelivered
// checkpoint replaces rows, a moved position and a stopped job are refused,
// the last open chunk completes the job with the right totals, and progress
// is announced at most 4 times a second whichever chunk commits.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { startPostgres } from "../../../tests/helpers/postgres.ts";
import type { Counters, StoredResult } from "../result_rows.ts";
import { CheckpointMoved, JobStopped } from "../result_rows.ts";
import { counters, newJob, result } from "../store_contract.ts";
import { PgStore } from "./pg_store.ts";

const pg = await startPostgres("chunks");
let databases = 0;

async function withStore(run: (store: PgStore) => Promise<void>) {
  const store = await PgStore.open(
    await pg.createDatabase(`c${++databases}`),
    3,
  );
  try {
    await run(store);
  } finally {
    await store.close();
  }
}

/** Rows [from, to) as results. */
const rows = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => result(from + i));

/** Counters after `done` rows of a chunk, host-name counts included. */
function after(done: StoredResult[], answered = 0): Counters {
  return {
    ...counters(done),
    hostnameLookups: { answered, noName: 0, timedOut: 0, skipped: 0 },
  };
}

const PLAN = [
  { chunk: 0, start: 10, end: 100, firstRow: 0, rows: 4 },
  { chunk: 1, start: 100, end: 200, firstRow: 4, rows: 3 },
];

Deno.test("chunk commits: replace, refuse, complete", async () => {
  await withStore(async (store) => {
    const chunks = store.chunkProgress;
    const job = await store.createJob({ ...newJob(), totalIPs: 7 });
    const planned = await chunks.planChunks(job.id, PLAN);
    assertEquals(planned.map((c) => [c.chunk, c.done, c.counters.processed]), [
      [0, false, 0],
      [1, false, 0],
    ]);
    // Planning again (a restart) keeps the first plan.
    assertEquals(
      (await chunks.planChunks(job.id, [])).map((c) => c.firstRow),
      [0, 4],
    );
    await store.setStatus(job.id, "processing", ["pending"]);
    const commit = (
      chunk: number,
      results: StoredResult[],
      counted: Counters,
      last = false,
    ) =>
      chunks.commitChunk({
        jobId: job.id,
        chunk,
        results,
        counters: counted,
        last,
        worker: `w${chunk}`,
      });

    // Chunk 1 first, then chunk 0: chunks commit in any order.
    await commit(1, rows(4, 6), after(rows(4, 6), 2));
    const first = await commit(0, rows(0, 2), after(rows(0, 2), 1));
    assertEquals(first.completed, false);
    let stored = (await store.getJob(job.id))!;
    assertEquals(stored.processedIPs, 4);
    assertEquals(stored.hostnameLookups.answered, 3);

    // Chunk 0's earlier checkpoint again (a second delivery that read
    // the old position) is refused.
    await assertRejects(
      () => commit(0, rows(0, 2), after(rows(0, 2), 1)),
      CheckpointMoved,
    );
    // Rows already stored past the chunk's position are replaced by its
    // next checkpoint (delete, then COPY), not duplicated.
    await store.sql.unsafe(
      `INSERT INTO results_${job.id} (job_id, row_index, original, ip,
        success, isp_filtered) VALUES ($1, 2, '["stale"]', '"x"', 0, 0),
        ($1, 3, '["stale"]', '"x"', 0, 0)`,
      [job.id],
    );
    const again = rows(2, 4).map((r) => ({ ...r, original: ["again"] }));
    await commit(0, again, after(rows(0, 4), 1));
    stored = (await store.getJob(job.id))!;
    assertEquals(stored.processedIPs, 6);
    const kept = await store.resultsBetween(job.id, 0, 10);
    assertEquals(kept.map((r) => r.rowIndex), [0, 1, 2, 3, 4, 5]);
    assertEquals([kept[2].original, kept[3].original], [["again"], ["again"]]);

    const done0 = await commit(0, [], after(rows(0, 4), 1), true);
    assertEquals(done0.completed, false);
    assertEquals((await store.getJob(job.id))!.status, "processing");
    const done1 = await commit(1, rows(6, 7), after(rows(4, 7), 2), true);
    assertEquals(done1, { announce: true, completed: true });
    stored = (await store.getJob(job.id))!;
    assertEquals(
      [stored.status, stored.totalIPs, stored.processedIPs],
      ["completed", 7, 7],
    );
    const all = counters(rows(0, 7));
    assertEquals(
      [stored.successfulIPs, stored.failedIPs, stored.filteredIPs],
      [all.successful, all.failed, all.filtered],
    );
    assertEquals(stored.hostnameLookups.answered, 3);
    assertEquals(
      (await store.resultsBetween(job.id, 0, 10)).map((r) => r.rowIndex),
      [0, 1, 2, 3, 4, 5, 6],
    );
    assertEquals(
      (await chunks.chunks(job.id)).map((c) => [c.done, c.worker]),
      [[true, "w0"], [true, "w1"]],
    );
    // A done chunk delivered again is refused (the job is completed).
    await assertRejects(
      () => commit(1, [], after(rows(4, 7), 2), true),
      JobStopped,
    );
  });
});

Deno.test("commits of all chunks announce a job's progress 4 times a second at most", async () => {
  await withStore(async (store) => {
    const job = await store.createJob({ ...newJob(), totalIPs: 7 });
    await store.chunkProgress.planChunks(job.id, PLAN);
    await store.setStatus(job.id, "processing", ["pending"]);
    const commit = (chunk: number, done: StoredResult[], from: number) =>
      store.chunkProgress.commitChunk({
        jobId: job.id,
        chunk,
        results: done.slice(from),
        counters: after(done),
        last: false,
        worker: `w${chunk}`,
      });
    // Two chunks (two workers) committing at once: one announcement.
    const first = await commit(0, rows(0, 1), 0);
    const second = await commit(1, rows(4, 5), 0);
    assertEquals([first.announce, second.announce], [true, false]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assertEquals((await commit(1, rows(4, 6), 1)).announce, true);
  });
});

Deno.test("planning chunks starts a job's counters from none", async () => {
  await withStore(async (store) => {
    // A job an older version ran whole for 3 rows, then cut into chunks.
    const job = await store.createJob({ ...newJob(), totalIPs: 7 });
    await store.setStatus(job.id, "processing", ["pending"]);
    await store.commitBatch(job.id, rows(0, 3), counters(rows(0, 3)));
    await store.chunkProgress.planChunks(job.id, PLAN);
    assertEquals((await store.getJob(job.id))!.processedIPs, 0);
    // Its first chunk's checkpoint replaces the rows stored before.
    await store.chunkProgress.commitChunk({
      jobId: job.id,
      chunk: 0,
      results: rows(0, 4),
      counters: after(rows(0, 4)),
      last: true,
      worker: "w",
    });
    assertEquals((await store.getJob(job.id))!.processedIPs, 4);
    assertEquals((await store.resultsBetween(job.id, 0, 10)).length, 4);
    // Planning again changes nothing.
    await store.chunkProgress.planChunks(job.id, PLAN);
    assertEquals((await store.getJob(job.id))!.processedIPs, 4);
  });
});

Deno.test("chunk commits: a cancelled job's checkpoint is refused whole", async () => {
  await withStore(async (store) => {
    const chunks = store.chunkProgress;
    const job = await store.createJob({ ...newJob(), totalIPs: 7 });
    await chunks.planChunks(job.id, PLAN);
    await store.setStatus(job.id, "processing", ["pending"]);
    await chunks.commitChunk({
      jobId: job.id,
      chunk: 0,
      results: rows(0, 2),
      counters: after(rows(0, 2)),
      last: false,
      worker: "w",
    });
    await store.setStatus(job.id, "cancelled", ["processing"]);
    await assertRejects(
      () =>
        chunks.commitChunk({
          jobId: job.id,
          chunk: 0,
          results: rows(2, 4),
          counters: after(rows(0, 4)),
          last: true,
          worker: "w",
        }),
      JobStopped,
    );
    const [chunk0] = await chunks.chunks(job.id);
    assertEquals([chunk0.counters.processed, chunk0.done], [2, false]);
    const stored = (await store.getJob(job.id))!;
    assertEquals([stored.status, stored.processedIPs], ["cancelled", 2]);
    assertEquals((await store.resultsBetween(job.id, 0, 10)).length, 2);
    // Clearing a job drops its chunks too.
    await store.deleteJobs("cancelled");
    assertEquals(await chunks.chunks(job.id), []);
  });
});

async function assertRejects(
  run: () => Promise<unknown>,
  type: new (...args: never[]) => Error,
) {
  try {
    await run();
  } catch (error) {
    ok(error instanceof type, `${error} is not a ${type.name}`);
    return;
  }
  throw new Error(`expected a ${type.name}`);
}

Deno.test({
  name: "postgres: stop the server",
  sanitizeResources: false,
  fn: () => pg.stop(),
});
