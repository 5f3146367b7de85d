// PostgreSQL mode (an API replica, workers with data directories of their
// own, uploads in S3) with a fault mid-job: the job still completes, and its
// download is byte-identical to a single-process SQLite run of the same file.
// - PostgreSQL restarted (`pg_ctl restart -m fast`): every connection of the
//   replica and the worker is cut.
// - S3 stopped for ten seconds from just before the job starts: the worker
//   lacks the upload (its data directory is its own) and must fetch it while
//   S3 is down.
// - S3 full once the first chunk is done, refusing writes as MinIO does
//   (507 XMinioStorageFull, tests/helpers/s3_server.ts): after aws4fetch's
//   retries the job stops saying which store is full and what to do; once
//   space is freed, Restart completes it.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  downloadText,
  postJson,
  startJob,
  uploadAndStart,
  uploadOk,
  waitForJob,
} from "../helpers/client.ts";
import type { Job } from "../../shared/wire.ts";
import { visitorCookie } from "../helpers/cookie_jar.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { startS3, type TestS3 } from "../helpers/s3_server.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

const ROWS = 50_000;

function csv(): string {
  const rows = ["ip,n"];
  for (let i = 0; i < ROWS; i++) {
    const a = (i * 7919) % 20_000;
    rows.push(`81.${(a >> 16) & 255}.${(a >> 8) & 255}.${a & 255},${i}`);
  }
  return rows.join("\n") + "\n";
}

interface Cluster {
  pg: TestPostgres;
  s3: TestS3;
  worker: RunningServer;
  /** Starts one more worker. */
  startWorker(): Promise<RunningServer>;
}

interface Fault {
  /** Done before the job starts. */
  beforeStart?: (cluster: Cluster) => Promise<void>;
  /** When the job is far enough along for `midJob`. */
  ready: (job: Job) => boolean;
  /** May return a check of what the fault did, run once the job completed. */
  midJob: (
    cluster: Cluster,
    job: Job,
  ) => Promise<void | (() => void | Promise<void>)>;
  /**
   * A fault that stops the job: checks how it failed, ends the fault, and
   * the job is restarted.
   */
  failed?: (job: Job, cluster: Cluster) => void;
}

/**
 * Runs a job on an API replica and a worker with `fault`, and expects the
 * job to complete with the bytes of a single-process run.
 */
function faultTest(name: string, fault: Fault) {
  Deno.test({
    name,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const pg = await startPostgres("faults");
      const s3 = await startS3();
      const processes: RunningServer[] = [];
      try {
        const common = {
          DATABASE_URL: pg.url,
          ...s3.env,
          QUEUE_HEARTBEAT_SECONDS: "10",
          CHUNK_ROWS: "10000",
          DNS_SERVERS: "127.0.0.1:9",
          JOB_CONCURRENCY: "1",
        };
        const api = await startServer({ env: { ...common, ROLE: "api" } });
        processes.push(api);
        const startWorker = async () => {
          const started = await startServer({
            env: { ...common, ROLE: "worker" },
            worker: true,
          });
          processes.push(started);
          return started;
        };
        const worker = await startWorker();
        const cluster = { pg, s3, worker, startWorker };
        await visitorCookie(api.url);
        const text = csv();
        const uploaded = await uploadOk(api, "faults.csv", text);
        await fault.beforeStart?.(cluster);
        const job = await startJob(api, uploaded, "ip");
        const started = await waitForJob(
          api,
          job.id,
          (j) => fault.ready(j) || j.completedAt !== null,
          120_000,
          20,
        );
        assertEquals(started.status, "processing");
        const check = await fault.midJob(cluster, started);
        // The replica may answer 500 while it reconnects: poll through it. A
        // worker that exits (as one did on postgres.js's uncaught TypeError)
        // fails the test at once rather than at the time-out.
        const ended = () =>
          Promise.race([
            waitForJob(api, job.id, undefined, 300_000, 200)
              .catch(() => waitForJob(api, job.id, undefined, 300_000, 200)),
            worker.process.status.then((status) => {
              throw new Error(`the worker exited (${status.code}) mid-job`);
            }),
          ]);
        let done = await ended();
        if (fault.failed) {
          assertEquals(done.status, "failed");
          fault.failed(done, cluster);
          const restarted = await postJson(
            api,
            `/api/jobs/${job.id}/restart`,
            {},
          );
          assertEquals(restarted.status, 200);
          await restarted.body?.cancel();
          await waitForJob(api, job.id, (j) => j.status !== "failed");
          done = await ended();
        }
        assertEquals(done.status, "completed", done.error ?? "");
        assertEquals([done.processedIPs, done.totalIPs], [ROWS, ROWS]);
        await check?.();
        const fromPg = await downloadText(api, job.id);

        const single = await startServer({ env: { DATABASE_URL: "" } });
        processes.push(single);
        const localJob = await uploadAndStart(single, "faults.csv", text, "ip");
        await waitForJob(single, localJob.id, undefined, 180_000, 200);
        const expected = await downloadText(single, localJob.id);
        assertEquals(fromPg.length, expected.length);
        ok(fromPg === expected, "PostgreSQL and SQLite downloads differ");
      } catch (error) {
        for (const process of processes) {
          console.error(`--- ${process.url}\n` + process.output.join("\n"));
        }
        throw error;
      } finally {
        for (const process of processes) {
          // A stopped process hears SIGTERM only once it goes on.
          try {
            process.process.kill("SIGCONT");
          } catch { /* ended */ }
          await process.stop();
        }
        await s3.stop();
        await pg.stop();
      }
    },
  });
}

faultTest(
  "PostgreSQL restarted mid-job: the job completes, the same download",
  {
    ready: (job) => job.processedIPs > 0,
    midJob: ({ pg }) => pg.restart(),
  },
);

let stopped = 0;
faultTest(
  "S3 stopped for 10 s as the job starts: the job completes, the same download",
  {
    beforeStart: async ({ s3 }) => {
      await s3.pause();
      stopped = Date.now();
    },
    // The worker has taken a chunk, and needs the upload from S3.
    ready: (job) => job.status === "processing",
    midJob: async ({ s3, worker }) => {
      await new Promise((resolve) =>
        setTimeout(resolve, stopped + 10_000 - Date.now())
      );
      await s3.resume();
      // Else the test proved nothing: the worker never asked S3 while down.
      return () =>
        ok(
          worker.output.some((line) => line.includes("blob store failed")),
          "the worker did not meet the outage",
        );
    },
  },
);

faultTest(
  "S3 full mid-job: the job stops plainly, and completes after a Restart",
  {
    ready: (job) => job.processedIPs > 0,
    midJob: ({ s3 }) => Promise.resolve(s3.setFull(true)),
    failed: (job, { s3 }) => {
      assertEquals(
        job.error,
        `The blob store (S3 at ${s3.endpoint}) is full: free some space, ` +
          "then press Restart; rows saved so far are kept",
      );
      ok(job.processedIPs < ROWS, `${job.processedIPs} rows`);
      s3.setFull(false);
    },
  },
);
