// One behaviour for every JobStore adapter and its ChunkProgressStore:
// store_contract_test.ts runs these against SQLite (a temp file) and
// PostgreSQL (a throwaway server), with a job's results (JobResults) in a
// temp directory.
import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
} from "node:assert/strict";
import { COMMA } from "../../server/csv/dialect.ts";
import type { Failure } from "../../shared/failures.ts";
import { LocalBlobStore } from "../../server/blobs/local_blobs.ts";
import { emptyEnrichment } from "../../server/enrichment/types.ts";
import { JobResults } from "../../server/results/job_results.ts";
import { countersOf, outputRowOf, seedRows } from "../helpers/seed_results.ts";
import { ChunkWriter } from "../../server/jobs/chunk_writer.ts";
import { dialectOf } from "../../server/results/output_row.ts";
import { storeAsSections, storeUnnamed } from "../helpers/old_parts.ts";
import { migrateParts } from "../../server/results/part_migration.ts";
import type { ChunkProgressStore } from "../../server/storage/chunk_progress.ts";
import type { NewJob } from "../../server/storage/job_rows.ts";
import {
  ChunkTaken,
  JobStopped,
  type StoredResult,
} from "../../server/storage/result_rows.ts";
import type { JobStore } from "../../server/storage/store_interface.ts";

export interface OpenedStore {
  store: JobStore;
  chunks: ChunkProgressStore;
  close(): Promise<void>;
}

export const newJob = (fileName = "a.csv", owner?: string): NewJob => ({
  fileName,
  originalFileName: "original name.csv",
  ipColumnName: "ip",
  ipColumnIndex: 1,
  headers: ["name", "ip"],
  dialect: { ...COMMA, delimiter: ";", header: "bmFtZTtpcA==", headerCells: 2 },
  totalIPs: 5,
  options: { geolocation: true, domain: false, company: true, network: false },
  owner,
});

/** Row i: a success with awkward text, every third one failed or filtered. */
export function result(i: number): StoredResult {
  const ip = `192.0.2.${i}`;
  const enrichment = { ...emptyEnrichment(ip), success: i % 3 !== 1 };
  if (i % 3 === 1) {
    enrichment.failure = { kind: "no_data" } as Failure;
  } else {
    enrichment.country = "Côte d'Ivoire\ttab";
    enrichment.city = i % 2 ? null : "back\\slash\nnew line";
    enrichment.latitude = 5.3 + i / 1000;
    enrichment.longitude = -4.0123456789;
    enrichment.ispFiltered = i % 3 === 2;
  }
  return { rowIndex: i, original: [`name ${i}, "q"`, ip], enrichment };
}

export const counters = (rows: StoredResult[]) => ({
  processed: rows.length,
  successful: rows.filter((r) => r.enrichment.success).length,
  failed: rows.filter((r) => !r.enrichment.success).length,
  filtered: rows.filter((r) => r.enrichment.ispFiltered).length,
});

/**
 * A contract test on a store of its own, opened and closed around it, with
 * results in a directory of its own.
 */
export function contractTest(
  name: string,
  open: () => Promise<OpenedStore>,
): (
  title: string,
  fn: (store: JobStore, results: JobResults) => Promise<void>,
) => void {
  return (title, fn) =>
    Deno.test(`${name}: ${title}`, async () => {
      const opened = await open();
      const dir = await Deno.makeTempDir({ prefix: "results-contract-" });
      try {
        await fn(
          opened.store,
          new JobResults(new LocalBlobStore(dir), opened.chunks),
        );
      } finally {
        await opened.close();
        await Deno.remove(dir, { recursive: true });
      }
    });
}

export function storeContract(
  name: string,
  open: () => Promise<OpenedStore>,
): void {
  const test = contractTest(name, open);

  test("uploads are kept, found unused after a while, deleted", async (s) => {
    const upload = {
      fileName: "u.csv",
      originalFileName: "U.csv",
      size: 1234,
      headers: ["ip", "x"],
      rowCount: 9,
      dialect: null,
      createdAt: "2020-01-01T00:00:00.000Z",
      owner: "session-1",
    };
    await s.addUpload(upload);
    assertEquals(await s.getUpload("u.csv"), upload);
    assertEquals(await s.getUpload("missing.csv"), null);
    assertEquals(await s.unusedUploadsBefore("2021-01-01"), [upload]);
    await s.createJob(newJob("u.csv"));
    assertEquals(await s.uploadInUse("u.csv"), true);
    assertEquals(await s.unusedUploadsBefore("2021-01-01"), []);
    await s.deleteUpload("u.csv");
    assertEquals(await s.getUpload("u.csv"), null);
  });

  test("a job is created pending with its settings", async (s) => {
    const job = await s.createJob(newJob());
    assertEquals(job.status, "pending");
    assertEquals(job.headers, ["name", "ip"]);
    assertEquals(job.options, {
      ...newJob().options,
      resolveHostnames: false,
      registration: false,
      lowConfidence: "keep",
    });
    assertEquals(job.owner, null);
    assertEquals(job.dialect, newJob().dialect);
    assertEquals(job.ipColumnIndex, 1);
    assertEquals([job.processedIPs, job.totalIPs], [0, 5]);
    assertEquals(await s.getJob(job.id), job);
    assertEquals(await s.getJob(job.id + 1000), null);
  });

  // SQLite cuts such text at the U+0000; PostgreSQL must at least not
  // refuse it (its text type cannot hold it at all).
  test("text from binary uploads (U+0000) is stored", async (s, r) => {
    const odd = "a\0b";
    const job = await s.createJob({
      ...newJob(),
      originalFileName: odd,
      ipColumnName: odd,
      headers: [odd, "ip"],
    });
    const stored = (await s.getJob(job.id))!;
    ok(stored.originalFileName.startsWith("a"));
    ok(stored.ipColumnName.startsWith("a"));
    assertEquals(stored.headers[0], odd);
    const row = { ...result(0), original: [odd, "x\0y"] };
    row.enrichment = { ...row.enrichment, ip: "x\0y" };
    await seedRows(s, r, job.id, [row]);
    const [back] = await r.between((await s.getJob(job.id))!, 0, 10);
    assertEquals(back.enrichment.ip, "x\0y");
    assertEquals(back.original, [odd, "x\0y"]);
  });

  test("status moves only from the expected states", async (s) => {
    const job = await s.createJob(newJob());
    assertEquals(await s.setStatus(job.id, "completed", ["processing"]), false);
    assertEquals(await s.setStatus(job.id, "processing", ["pending"]), true);
    assertEquals((await s.getJob(job.id))!.completedAt, null);
    assertEquals(
      await s.setStatus(job.id, "failed", ["processing"], "x"),
      true,
    );
    const failed = (await s.getJob(job.id))!;
    assertEquals([failed.status, failed.error], ["failed", "x"]);
    ok(failed.completedAt);
  });

  test(
    "chunks add up to the job; the last one done completes it",
    async (s, r) => {
      const job = await s.createJob(newJob());
      const rows = [0, 1, 2, 3, 4].map(result);
      await seedRows(s, r, job.id, rows, { chunkRows: 2, done: [2, 0] });
      const part = (await s.getJob(job.id))!;
      assertEquals(part.status, "processing");
      assertEquals(part.processedIPs, 3);
      // Another run took chunk 1: this one's commits are refused.
      const { chunks } = r;
      assertEquals(await chunks.startChunk(job.id, 1, "run-a", "a"), true);
      assertEquals(await chunks.startChunk(job.id, 1, "run-b", "b"), true);
      const first = { ...counters(rows.slice(2, 3)) };
      await rejects(
        async () =>
          await chunks.commitChunk({
            jobId: job.id,
            chunk: 1,
            run: "run-a",
            counters: first,
            worker: "a",
            last: false,
          }),
        ChunkTaken,
      );
      // Progress adds to the job; a run started again takes it back.
      await chunks.commitChunk({
        jobId: job.id,
        chunk: 1,
        run: "run-b",
        counters: first,
        worker: "b",
        last: false,
      });
      assertEquals((await s.getJob(job.id))!.processedIPs, 4);
      assertEquals(await chunks.startChunk(job.id, 1, "run-c", "c"), true);
      assertEquals((await s.getJob(job.id))!.processedIPs, 3);
      // A done chunk is not started again.
      assertEquals(await chunks.startChunk(job.id, 0, "run-d", "d"), false);
      await seedRows(s, r, job.id, rows, { chunkRows: 2, done: [1] });
      const done = (await s.getJob(job.id))!;
      const expected = counters(rows);
      assertEquals(done.status, "completed");
      assertEquals(
        [done.processedIPs, done.successfulIPs, done.failedIPs, done.totalIPs],
        [expected.processed, expected.successful, expected.failed, 5],
      );
      assertEquals(done.filteredIPs, expected.filtered);
      assertEquals(await r.between(done, 0, 10), rows);
    },
  );

  test(
    "chunks stored a blob per section are indexed once, and read the same",
    async (s, r) => {
      const job = await s.createJob(newJob());
      const rows = Array.from({ length: 250 }, (_, i) => result(i));
      await seedRows(s, r, job.id, rows, { chunkRows: 100 });
      const done = (await s.getJob(job.id))!;
      await storeUnnamed(r, job.id);
      const outputs = await r.chunks.outputs(job.id);
      await storeAsSections(r, job.id);
      ok((await r.chunks.outputs(job.id)).every((o) => !o.meta.index));
      await migrateParts(s, r);
      assertEquals(await r.chunks.outputs(job.id), outputs);
      assertEquals(await r.between(done, 0, 250), rows);
    },
  );

  test(
    "a run refused after another run's commit leaves the chunk's parts as committed",
    async (s, r) => {
      const job = await s.createJob(newJob());
      const rows = [0, 1, 2, 3, 4].map(result);
      await seedRows(s, r, job.id, rows, { chunkRows: 2, done: [0] });
      // A worker takes chunk 1 and stops; another runs it again and commits.
      const late = new ChunkWriter(s, r.chunks, r, 1, "a", job);
      ok(await late.start());
      await seedRows(s, r, job.id, rows, { chunkRows: 2, done: [1] });
      const running = (await s.getJob(job.id))!;
      const read = async () => ({
        csv: await new Response(await r.csvBody(running)).text(),
        rows: await r.between(running, 0, 5),
        page: await r.preview(running, {}, 1, 10),
        summary: await r.summary(running),
      });
      const committed = await read();
      const keys = async () =>
        (await r.blobs.listOlderThan(new Date(Date.now() + 1e9), "results"))
          .map((b) => b.key).sort();
      const stored = await keys();
      // Going on, it stores other answers for the chunk; its commit is refused.
      const other = rows.slice(2, 4).map((row) => ({
        ...row,
        enrichment: { ...row.enrichment, success: true, country: "Elsewhere" },
      }));
      for (const row of other) {
        late.output.addRow(outputRowOf(dialectOf(running), row), -1);
      }
      late.write(countersOf(other), true, () => {});
      await rejects(() => late.waitForBacklogAtMost(0), ChunkTaken);
      assertEquals(await read(), committed);
      assertEquals(await keys(), stored);
    },
  );

  test("results read back in order, exactly as written", async (s, r) => {
    const job = await s.createJob(newJob());
    const rows = Array.from({ length: 250 }, (_, i) => result(i));
    await seedRows(s, r, job.id, rows, { chunkRows: 100 });
    const done = (await s.getJob(job.id))!;
    assertEquals(await r.between(done, 0, 250), rows);
    assertEquals(await r.between(done, 95, 105), rows.slice(95, 105));
    const kept = rows.filter((row) => !row.enrichment.ispFiltered);
    assertEquals((await Array.fromAsync(r.keptPages(done))).flat(), kept);
    const csv = await new Response(await r.csvBody(done)).text();
    assertEquals(csv.split("\r\n").length - 2, kept.length);
    const page = await r.preview(done, { status: "filtered" }, 2, 10);
    const filtered = rows.filter((row) => row.enrichment.ispFiltered);
    assertEquals(page.total, filtered.length);
    assertEquals(page.rows, filtered.slice(10, 20));
  });

  test(
    "a cancelled job refuses later commits and keeps its done chunks",
    async (s, r) => {
      const job = await s.createJob(newJob());
      const rows = [0, 1, 2, 3].map(result);
      await seedRows(s, r, job.id, rows, { chunkRows: 2, done: [0] });
      const { chunks } = r;
      await chunks.startChunk(job.id, 1, "run", "w");
      await chunks.commitChunk({
        jobId: job.id,
        chunk: 1,
        run: "run",
        counters: counters(rows.slice(2, 3)),
        worker: "w",
        last: false,
      });
      assertEquals(
        await s.setStatus(job.id, "cancelled", ["pending", "processing"]),
        true,
      );
      await rejects(
        async () =>
          await chunks.commitChunk({
            jobId: job.id,
            chunk: 1,
            run: "run",
            counters: counters(rows.slice(2)),
            worker: "w",
            last: true,
          }),
        JobStopped,
      );
      await chunks.dropUnfinished(job.id);
      const cancelled = (await s.getJob(job.id))!;
      assertEquals([cancelled.status, cancelled.processedIPs], [
        "cancelled",
        2,
      ]);
      assertEquals(await r.between(cancelled, 0, 10), rows.slice(0, 2));
      assertEquals((await r.summary(cancelled)).rows.total, 2);
    },
  );

  test("jobs list newest first and by status oldest first", async (s) => {
    const a = await s.createJob(newJob());
    const b = await s.createJob(newJob());
    const c = await s.createJob(newJob());
    await s.setStatus(b.id, "processing", ["pending"]);
    assertEquals((await s.listJobs()).map((j) => j.id), [c.id, b.id, a.id]);
    assertEquals(
      (await s.jobsWithStatus("processing", "pending")).map((j) => j.id),
      [a.id, b.id, c.id],
    );
    assertEquals((await s.jobsWithStatus("processing")).map((j) => j.id), [
      b.id,
    ]);
  });

  test(
    "deleting completed jobs removes them and their results",
    async (s, r) => {
      const done = await s.createJob(newJob("done.csv"));
      const kept = await s.createJob(newJob("kept.csv"));
      await seedRows(s, r, done.id, [result(0)]);
      await seedRows(s, r, kept.id, [result(0), result(1)], { done: [] });
      const deleted = await s.deleteJobs("completed");
      assertEquals(deleted.map((j) => j.id), [done.id]);
      for (const job of deleted) await r.deleteJob(job.id);
      assertEquals(await s.getJob(done.id), null);
      assertEquals(await r.chunks.chunks(done.id), []);
      assertEquals(await r.between(done, 0, 10), []);
      assertEquals(await s.uploadInUse("done.csv"), false);
      assertEquals((await r.chunks.chunks(kept.id)).length, 1);
      // A job made after the clearing gets a fresh id and no results.
      const next = await s.createJob(newJob());
      ok(next.id > kept.id);
      assertEquals(await r.between(next, 0, 10), []);
    },
  );
}
