// PostgreSQL mode (an API replica, workers with data directories of their
// own, uploads in S3) with a fault mid-job: the job still completes, and its
// download is byte-identical to a single-process SQLite run of the same file.
// - PostgreSQL restarted (`pg_ctl restart -m fast`): every connection of the
//   replica and the worker is cut.
// - S3 stopped for ten seconds from just before the job starts: the worker
//   lacks the upload (its data directory is its own) and must fetch it while
//   S3 is down.
// - A worker stopped (SIGSTOP) inside a progress commit, its chunk's and
//   its job's rows locked: the server ends its session (freeing them) and
//   the queue hands the chunk to a second worker once the heartbeat lapses;
//   let go on (SIGCONT), the stopped worker changes nothing.
// - S3 full once the first chunk is done, refusing writes as MinIO does
//   (507 XMinioStorageFull, tests/helpers/s3_server.ts): after aws4fetch's
//   retries the job stops saying which store is full and what to do; once
//   space is freed, Restart completes it.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import postgres from "postgres";
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
  api: RunningServer;
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

/** Polls `value` until it gives something, or fails after `ms`. */
async function until<T>(
  what: string,
  value: () => Promise<T | undefined> | T | undefined,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await value();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
        const cluster = { pg, api, s3, worker, startWorker };
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

faultTest(
  "a worker stopped inside a progress commit: another takes the chunk, the same download; let go on, it changes nothing",
  {
    ready: (job) => job.processedIPs > 0,
    midJob: async ({ pg, api, worker, startWorker }, job) => {
      const sql = postgres(pg.url, { max: 2, onnotice: () => {} });
      // The test holds the job's row, so the worker's next commit, having
      // locked its chunk's row, waits for it.
      const gate = await sql.reserve();
      await gate`BEGIN`;
      const [locked] = await gate`SELECT status, pg_backend_pid() AS pid
        FROM jobs WHERE id = ${job.id} FOR UPDATE`;
      assertEquals(locked.status, "processing");
      const commit = await until(
        "the worker's commit to wait for the job's row",
        async () =>
          (await sql`SELECT pid FROM pg_stat_activity
            WHERE ${locked.pid} = ANY(pg_blocking_pids(pid))
              AND application_name = 'ip-enrich-store'
              AND query LIKE 'UPDATE jobs SET %'`)[0]?.pid as
            | number
            | undefined,
      );
      worker.process.kill("SIGSTOP");
      const [{ chunk }] = await sql`SELECT (data->>'chunk')::int AS chunk
        FROM pgboss.job
        WHERE state = 'active' AND (data->>'jobId')::int = ${job.id}`;
      await gate`COMMIT`;
      gate.release();
      // Its commit went on and left the worker's session inside the
      // transaction, the chunk's and the job's rows locked, the worker
      // stopped before it could go on.
      await until(
        "the stopped worker's session to be idle",
        async () =>
          (await sql`SELECT state FROM pg_stat_activity WHERE pid = ${commit}`)[
              0
            ]
              ?.state === "idle in transaction" || undefined,
      );
      const next = await startWorker();
      return async () => {
        // The server ended the stopped worker's session.
        assertEquals(
          (await sql`SELECT pid FROM pg_stat_activity WHERE pid = ${commit}`)
            .length,
          0,
        );
        const [taken] = await sql`SELECT worker, done FROM job_chunks
          WHERE job_id = ${job.id} AND chunk = ${chunk}`;
        assertEquals(taken.done, true);
        assertEquals(taken.worker.split(":").at(-1), String(next.process.pid));
        const state = async () => ({
          job: await sql`SELECT * FROM jobs WHERE id = ${job.id}`,
          chunks: await sql`SELECT * FROM job_chunks WHERE job_id = ${job.id}
            ORDER BY chunk`,
          queue: await sql`SELECT id, state, retry_count FROM pgboss.job
            WHERE (data->>'jobId')::int = ${job.id} ORDER BY id`,
          download: await downloadText(api, job.id),
        });
        // The second worker settles its last delivery after its commit.
        await until(
          "the queue to settle the job's chunks",
          async () =>
            (await sql`SELECT 1 FROM pgboss.job WHERE state < 'completed'
            AND (data->>'jobId')::int = ${job.id}`).length === 0 || undefined,
        );
        const before = await state();
        // Let go on, the stopped worker finds its delivery of the chunk
        // handed on, and leaves everything as it is.
        worker.process.kill("SIGCONT");
        await until(
          "the stopped worker to let its chunk go",
          () =>
            worker.output.some((line) =>
              line.includes(
                `job ${job.id} chunk ${chunk}: no longer this worker's`,
              )
            ) || undefined,
        );
        assertEquals(await state(), before);
        await sql.end();
      };
    },
  },
);
