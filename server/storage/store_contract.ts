// One behaviour for every JobStore adapter: store_contract_test.ts runs these
// against SQLite (a temp file) and PostgreSQL (a throwaway server).
import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
} from "node:assert/strict";
import { type Failure, failureMessage } from "../../shared/failures.ts";
import { emptyEnrichment } from "../enrichment/types.ts";
import type { NewJob } from "./job_rows.ts";
import {
  CheckpointMoved,
  JobStopped,
  type StoredResult,
} from "./result_rows.ts";
import type { JobStore } from "./store_interface.ts";

export interface OpenedStore {
  store: JobStore;
  close(): Promise<void>;
}

export const newJob = (fileName = "a.csv", owner?: string): NewJob => ({
  fileName,
  originalFileName: "original name.csv",
  ipColumnName: "ip",
  ipColumnIndex: 1,
  headers: ["name", "ip"],
  delimiter: ";",
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

/** A contract test on a store of its own, opened and closed around it. */
export function contractTest(
  name: string,
  open: () => Promise<OpenedStore>,
): (title: string, fn: (store: JobStore) => Promise<void>) => void {
  return (title, fn) =>
    Deno.test(`${name}: ${title}`, async () => {
      const opened = await open();
      try {
        await fn(opened.store);
      } finally {
        await opened.close();
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
      delimiter: ",",
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
    assertEquals(job.delimiter, ";");
    assertEquals(job.ipColumnIndex, 1);
    assertEquals([job.processedIPs, job.totalIPs], [0, 5]);
    assertEquals(await s.getJob(job.id), job);
    assertEquals(await s.getJob(job.id + 1000), null);
  });

  // SQLite cuts such text at the U+0000; PostgreSQL must at least not
  // refuse it (its text type cannot hold it at all).
  test("text from binary uploads (U+0000) is stored", async (s) => {
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
    await s.setStatus(job.id, "processing", ["pending"]);
    const row = { ...result(1), original: [odd, "x\0y"] };
    row.enrichment = { ...row.enrichment, ip: "x\0y" };
    await s.commitBatch(job.id, [row], counters([row]));
    const [back] = await s.resultsBetween(job.id, 0, 10);
    ok(back.enrichment.ip.startsWith("x"));
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

  test("checkpoints commit with counters; the resume position follows", async (s) => {
    const job = await s.createJob(newJob());
    await s.setStatus(job.id, "processing", ["pending"]);
    const rows = [0, 1, 2, 3, 4].map(result);
    await s.commitBatch(job.id, rows.slice(0, 3), counters(rows.slice(0, 3)));
    assertEquals((await s.getJob(job.id))!.processedIPs, 3);
    // The same checkpoint again (a second writer) is refused as a whole.
    await rejects(
      async () =>
        await s.commitBatch(
          job.id,
          rows.slice(0, 3),
          counters(rows.slice(0, 3)),
        ),
      CheckpointMoved,
    );
    await s.commitBatch(job.id, rows.slice(3), counters(rows));
    const stored = (await s.getJob(job.id))!;
    const expected = counters(rows);
    assertEquals(
      [stored.processedIPs, stored.successfulIPs, stored.failedIPs],
      [expected.processed, expected.successful, expected.failed],
    );
    assertEquals(stored.filteredIPs, expected.filtered);
    assertEquals(stored.partialSaveAvailable, true);
    await s.setTotal(job.id, 5);
    assertEquals(await s.setStatus(job.id, "completed", ["processing"]), true);
  });

  test("results page back in order, exactly as written", async (s) => {
    const job = await s.createJob(newJob());
    await s.setStatus(job.id, "processing", ["pending"]);
    const rows = Array.from({ length: 250 }, (_, i) => result(i));
    for (let from = 0; from < rows.length; from += 100) {
      await s.commitBatch(
        job.id,
        rows.slice(from, from + 100),
        counters(rows.slice(0, from + 100)),
      );
    }
    assertEquals(await s.resultsBetween(job.id, 0, 250), rows);
    assertEquals(await s.resultsBetween(job.id, 95, 105), rows.slice(95, 105));
    const kept = rows.filter((r) => !r.enrichment.ispFiltered);
    assertEquals(await s.resultsBetween(job.id, 0, 250, true), kept);
    const values = await s.keptRowValues(job.id, 0, 10, [
      "country",
      "latitude",
    ]);
    assertEquals(
      values,
      kept.filter((r) => r.rowIndex < 10).map((r) => [
        JSON.stringify(r.original),
        r.enrichment.country,
        r.enrichment.latitude,
        r.enrichment.success ? 1 : 0,
        r.enrichment.failure
          ? failureMessage(r.enrichment.failure, "job")
          : null,
      ]),
    );
  });

  test("a cancelled job refuses later checkpoints", async (s) => {
    const job = await s.createJob(newJob());
    await s.setStatus(job.id, "processing", ["pending"]);
    await s.commitBatch(job.id, [result(0)], counters([result(0)]));
    assertEquals(
      await s.setStatus(job.id, "cancelled", ["pending", "processing"]),
      true,
    );
    await rejects(
      async () =>
        await s.commitBatch(job.id, [result(1)], counters([0, 1].map(result))),
      JobStopped,
    );
    const cancelled = (await s.getJob(job.id))!;
    assertEquals([cancelled.status, cancelled.processedIPs], ["cancelled", 1]);
    assertEquals((await s.resultsBetween(job.id, 0, 10)).length, 1);
  });

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

  test("deleting completed jobs removes them and their results", async (s) => {
    const done = await s.createJob(newJob("done.csv"));
    const kept = await s.createJob(newJob("kept.csv"));
    for (const job of [done, kept]) {
      await s.setStatus(job.id, "processing", ["pending"]);
      await s.commitBatch(job.id, [result(0)], counters([result(0)]));
    }
    await s.setStatus(done.id, "completed", ["processing"]);
    const deleted = await s.deleteJobs("completed");
    assertEquals(deleted.map((j) => j.id), [done.id]);
    assertEquals(await s.getJob(done.id), null);
    assertEquals(await s.resultsBetween(done.id, 0, 10), []);
    assertEquals(await s.uploadInUse("done.csv"), false);
    assertEquals((await s.resultsBetween(kept.id, 0, 10)).length, 1);
    // A job made after the clearing gets a fresh id and empty results.
    const next = await s.createJob(newJob());
    ok(next.id > kept.id);
    assertEquals(await s.resultsBetween(next.id, 0, 10), []);
  });
}
