// The job lifecycle on a throwaway PostgreSQL with pg-boss and this
// process's engine: a job cut into chunks of CHUNK rows, run by two chunk slots, stores
// every row once in input order; a chunk of a cancelled job does nothing; a
// restarted failed job runs only its chunks not done; an upload gone fails
// the job when it is queued; a chunk's last commit cut by a database
// restart hands the chunk back to the queue; a job whose chunk the queue
// gave up on fails. (A blob store that does not answer is waited for by the
// store itself: blobs/s3_blobs_test.ts.)
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { startPostgres } from "../../tests/helpers/postgres.ts";
import { loadConfig } from "../config.ts";
import { Engine, loadEngineData } from "../enrichment/engine.ts";
import { LocalBlobStore } from "../blobs/local_blobs.ts";
import { PgBossQueue } from "../queue/pg_boss_queue.ts";
import type { ChunkProgressStore } from "../storage/chunk_progress.ts";
import { PgStore } from "../storage/pg/pg_store.ts";
import { JobResults } from "../results/job_results.ts";
import { FILE_GONE } from "./enrich_chunk.ts";
import { failureWords } from "./job_failure.ts";
import { JobLifecycle } from "./job_lifecycle.ts";
import { runChunk, THIS_PROCESS } from "./run_chunk.ts";

const CHUNK = 10;
const ROWS = 25;
const pg = await startPostgres("runner");
const engine = new Engine(await loadEngineData(loadConfig({})), {
  servers: ["127.0.0.1:9"],
  timeoutMs: 200,
  concurrency: 8,
});
let databases = 0;

async function setUp({ stallMs = 600_000 } = {}) {
  const url = await pg.createDatabase(`runner_${++databases}`);
  const dir = await Deno.makeTempDir({ prefix: "queue-runner-" });
  const store = await PgStore.open(url, 4);
  const queue = await PgBossQueue.open({
    databaseUrl: url,
    heartbeatSeconds: null,
    expireInSeconds: 60,
    monitorIntervalSeconds: 1,
    pollingIntervalSeconds: 0.5,
  });
  const progress = store.chunkProgress;
  // Jobs whose next last commit of a chunk fails as a connection cut by a
  // database restart.
  const cutOnce = new Set<number>();
  const chunks: ChunkProgressStore = {
    planChunks: (jobId, plan) => progress.planChunks(jobId, plan),
    chunks: (jobId) => progress.chunks(jobId),
    getChunk: (jobId, chunk) => progress.getChunk(jobId, chunk),
    startChunk: (jobId, chunk, run, worker) =>
      progress.startChunk(jobId, chunk, run, worker),
    outputs: (jobId) => progress.outputs(jobId),
    setMeta: (jobId, chunk, meta) => progress.setMeta(jobId, chunk, meta),
    runningKinds: (jobId) => progress.runningKinds(jobId),
    dropUnfinished: (jobId) => progress.dropUnfinished(jobId),
    async commitChunk(commit) {
      if (commit.last && cutOnce.delete(commit.jobId)) {
        throw Object.assign(new Error("write CONNECTION_CLOSED"), {
          code: "CONNECTION_CLOSED",
        });
      }
      return await progress.commitChunk(commit);
    },
  };
  const results = new JobResults(new LocalBlobStore(dir), chunks);
  const runner = new JobLifecycle({
    store,
    chunks,
    queue,
    uploadsDir: dir,
    dataDir: dir,
    chunkSizes: { rows: CHUNK, dnsRows: CHUNK },
    announce: () => {},
    blobs: null,
    stallMs,
  });
  const work = (concurrency: number) =>
    runner.work(
      ({ job, chunk, signal, onProgress }) =>
        runChunk(
          {
            store,
            chunks,
            results,
            engine,
            uploadsDir: dir,
            progressRows: 3,
            worker: THIS_PROCESS,
          },
          job.id,
          chunk,
          () => signal.aborted,
          onProgress,
        ),
      concurrency,
    );
  // Quoted line ends and an empty line: chunks must still cut at rows.
  const lines = ["ip,note"];
  for (let i = 0; i < ROWS; i++) {
    lines.push(`8.8.${i}.8,"row ${i}${i % 4 === 0 ? "\r\nmore" : ""}"`);
    if (i === 12) lines.push("");
  }
  const text = lines.join("\r\n");
  await Deno.writeTextFile(join(dir, "in.csv"), text);
  // A copy with no upload record, as uploaded before chunks were noted.
  await Deno.writeTextFile(join(dir, "old.csv"), text);
  // The chunks the upload's reader notes (row_chunks_test.ts), here of
  // exactly CHUNK rows: the first from byte 0 with the header row.
  // (The text is ASCII: a character is a byte.)
  const rowStarts: number[] = [];
  let offset = 0;
  for (const [i, line] of lines.entries()) {
    if (i > 0 && line !== "") rowStarts.push(offset);
    offset += line.length + 2;
  }
  const firsts = [0, CHUNK, 2 * CHUNK];
  const chunkPlan = firsts.map((firstRow, i) => ({
    start: i === 0 ? 0 : rowStarts[firstRow],
    end: i + 1 < firsts.length ? rowStarts[firsts[i + 1]] : text.length,
    firstRow,
    rows: Math.min(CHUNK, ROWS - firstRow),
  }));
  await store.addUpload({
    fileName: "in.csv",
    originalFileName: "in.csv",
    size: text.length,
    headers: ["ip", "note"],
    rowCount: ROWS,
    dialect: null,
    createdAt: new Date().toISOString(),
    owner: null,
    chunks: chunkPlan,
  });
  const newJob = (fileName = "in.csv") =>
    store.createJob({
      fileName,
      originalFileName: fileName,
      ipColumnName: "ip",
      ipColumnIndex: 0,
      headers: ["ip", "note"],
      dialect: null,
      totalIPs: ROWS,
      options: {
        geolocation: true,
        domain: false,
        company: true,
        network: true,
      },
    });
  const queued = async (jobId: number) =>
    (await store.sql`SELECT (data->>'chunk')::int AS chunk FROM pgboss.job
      WHERE (data->>'jobId')::int = ${jobId}
        AND state IN ('created', 'retry', 'active') ORDER BY 1`)
      .map((row) => row.chunk);
  return {
    store,
    queue,
    runner,
    work,
    newJob,
    queued,
    results,
    cutOnce,
    async close() {
      runner.close();
      await queue.close();
      await store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function waitFor(check: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!await check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test("a job runs as chunks; cancel, restart, a lost upload", async () => {
  const t = await setUp();
  try {
    const { store, runner } = t;
    // Queued: cut into 3 chunks, all queued.
    const job = await t.newJob();
    await runner.enqueue(job.id);
    const chunks = await store.chunkProgress.chunks(job.id);
    assertEquals(chunks.map((c) => [c.firstRow, c.rows]), [
      [0, 10],
      [10, 10],
      [20, 5],
    ]);
    assertEquals(await t.queued(job.id), [0, 1, 2]);

    // Cancelled before any worker took it: its chunks leave the queue, and
    // one delivered anyway does nothing.
    const cancelled = await t.newJob();
    await runner.enqueue(cancelled.id);
    assertEquals(await runner.cancel(cancelled.id), true);
    assertEquals(await t.queued(cancelled.id), []);
    await t.queue.enqueue([{
      jobId: cancelled.id,
      chunk: 0,
      start: chunks[0].start,
      end: chunks[0].end,
      firstRow: 0,
    }]);

    // A failed job with chunk 1 done: a restart queues chunks 0 and 2.
    const failed = await t.newJob();
    await runner.enqueue(failed.id);
    await t.queue.cancel(failed.id);
    await store.sql`UPDATE job_chunks SET done = true
      WHERE job_id = ${failed.id} AND chunk = 1`;
    await store.setStatus(failed.id, "failed", ["pending"], "broken");
    assertEquals(await runner.restart(failed.id), true);
    assertEquals(await t.queued(failed.id), [0, 2]);

    // An upload stored before its chunks were noted is counted again (one
    // cut: fewer rows than CUT_ROWS).
    const old = await t.newJob("old.csv");
    await runner.enqueue(old.id);
    const oldChunks = await store.chunkProgress.chunks(old.id);
    assertEquals(oldChunks.map((c) => [c.firstRow, c.rows]), [[0, 25]]);
    assertEquals([oldChunks[0].start, oldChunks[0].end], [0, chunks[2].end]);

    // An upload gone when the job is queued fails the job plainly.
    const lost = await t.newJob("gone.csv");
    await runner.enqueue(lost.id);
    const lostJob = (await store.getJob(lost.id))!;
    assertEquals([lostJob.status, lostJob.error], ["failed", FILE_GONE]);

    // The database restarts under the first job's first commit: its chunk
    // goes back to the queue and resumes; the job does not fail.
    t.cutOnce.add(job.id);
    await t.work(2);
    await waitFor(async () =>
      (await store.getJob(job.id))!.status === "completed" &&
      (await store.getJob(failed.id))!.status === "completed" &&
      (await store.getJob(old.id))!.status === "completed"
    );
    const rowsOf = async (id: number) =>
      await t.results.between((await store.getJob(id))!, 0, 100);
    assertEquals(
      (await rowsOf(old.id)).map((r) => r.original),
      (await rowsOf(job.id)).map((r) => r.original),
    );
    const done = (await store.getJob(job.id))!;
    assertEquals([done.processedIPs, done.totalIPs], [ROWS, ROWS]);
    const rows = await rowsOf(job.id);
    assertEquals(rows.map((r) => r.rowIndex), [...Array(ROWS).keys()]);
    for (const row of rows) {
      const i = row.rowIndex;
      assertEquals(row.original, [
        `8.8.${i}.8`,
        `row ${i}${i % 4 === 0 ? "\r\nmore" : ""}`,
      ]);
      assertEquals(row.enrichment.ip, `8.8.${i}.8`);
    }
    ok((await store.chunkProgress.chunks(job.id)).every((c) => c.done));
    assertEquals(t.cutOnce.size, 0, "the cut commit was tried");

    // Only chunks 0 and 2 ran: 15 rows, none of chunk 1's.
    const restarted = (await store.getJob(failed.id))!;
    assertEquals([restarted.processedIPs, restarted.totalIPs], [15, 15]);
    const stored = await rowsOf(failed.id);
    assertEquals(stored.map((r) => r.rowIndex), [
      ...[...Array(10).keys()],
      20,
      21,
      22,
      23,
      24,
    ]);

    await waitFor(async () => (await t.queued(cancelled.id)).length === 0);
    const stillCancelled = (await store.getJob(cancelled.id))!;
    assertEquals([stillCancelled.status, stillCancelled.processedIPs], [
      "cancelled",
      0,
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("a job whose chunk the queue gave up on fails, its done chunks kept", async () => {
  const t = await setUp();
  try {
    const { store, runner } = t;
    // Processing, chunk 1 done, nothing queued or running (as when a chunk
    // lost its worker more times than its retries).
    const given = await t.newJob();
    await runner.enqueue(given.id);
    await t.queue.cancel(given.id);
    await store.sql`UPDATE job_chunks SET done = true
      WHERE job_id = ${given.id} AND chunk = 1`;
    await store.setStatus(given.id, "processing", ["pending"]);
    // Processing with its chunks queued: left alone.
    const queuedJob = await t.newJob();
    await runner.enqueue(queuedJob.id);
    await store.setStatus(queuedJob.id, "processing", ["pending"]);

    // Found once: maybe a job being queued; found again: failed.
    assertEquals(await runner.sweep(), []);
    assertEquals((await store.getJob(given.id))!.status, "processing");
    assertEquals(await runner.sweep(), [given.id]);
    const failed = (await store.getJob(given.id))!;
    assertEquals([failed.status, failed.error], [
      "failed",
      failureWords({ kind: "abandoned" }, ""),
    ]);
    assertEquals(
      (await store.chunkProgress.chunks(given.id)).map((c) => c.done),
      [false, true, false],
    );
    assertEquals((await store.getJob(queuedJob.id))!.status, "processing");
    // A restart queues the chunks not done.
    assertEquals(await runner.restart(given.id), true);
    assertEquals(await t.queued(given.id), [0, 2]);
  } finally {
    await t.close();
  }
});

Deno.test("a chunk that makes no progress fails its job and is stopped", async () => {
  const t = await setUp({ stallMs: 200 });
  try {
    const { store, runner } = t;
    const job = await t.newJob();
    await runner.enqueue(job.id);
    // A chunk that never commits a row, as one stuck in a row does, until
    // it is told to stop.
    const stopped: unknown[] = [];
    await runner.work(
      ({ signal }) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => {
            stopped.push(signal.reason);
            resolve("cancelled");
          })
        ),
      1,
    );
    await waitFor(async () =>
      (await store.getJob(job.id))!.status === "failed"
    );
    const failed = (await store.getJob(job.id))!;
    assertEquals(
      failed.error,
      failureWords({ kind: "stalled", seconds: 0 }, ""),
    );
    assertEquals(stopped, [{ kind: "stalled", seconds: 0 }]);
    // Its other chunks left the queue.
    await waitFor(async () => (await t.queued(job.id)).length === 0);
  } finally {
    await t.close();
  }
});

Deno.test({
  name: "postgres: stop the server",
  sanitizeResources: false,
  fn: () => pg.stop(),
});
