// PostgreSQL mode with its database restarted mid-job (`pg_ctl restart -m
// fast`: every connection of the API replica and the workers is cut): the
// job still completes, and its download is byte-identical to a
// single-process SQLite run of the same file.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  downloadText,
  startJob,
  uploadOk,
  waitForJob,
} from "../helpers/client.ts";
import { visitorCookie } from "../helpers/cookie_jar.ts";
import { startPostgres } from "../helpers/postgres.ts";
import { startS3 } from "../helpers/s3_server.ts";
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

Deno.test({
  name: "PostgreSQL restarted mid-job: the job completes, the same download",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const pg = await startPostgres("restart");
    // The worker has a data directory of its own: uploads reach it by S3.
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
      const worker = await startServer({
        env: { ...common, ROLE: "worker" },
        worker: true,
      });
      processes.push(worker);
      await visitorCookie(api.url);
      const text = csv();
      const uploaded = await uploadOk(api, "restart.csv", text);
      const job = await startJob(api, uploaded, "ip");
      const started = await waitForJob(
        api,
        job.id,
        (j) => j.processedIPs > 0 || j.completedAt !== null,
        120_000,
        20,
      );
      assertEquals(started.status, "processing");
      await pg.restart();
      // The replica may answer 500 while it reconnects: poll through it. A
      // worker that exits (as one did on postgres.js's uncaught TypeError)
      // fails the test at once rather than at the time-out.
      const done = await Promise.race([
        waitForJob(api, job.id, undefined, 300_000, 200)
          .catch(() => waitForJob(api, job.id, undefined, 300_000, 200)),
        worker.process.status.then((status) => {
          throw new Error(`the worker exited (${status.code}) mid-job`);
        }),
      ]);
      assertEquals(done.status, "completed", done.error ?? "");
      assertEquals([done.processedIPs, done.totalIPs], [ROWS, ROWS]);
      const fromPg = await downloadText(api, job.id);

      const single = await startServer({ env: { DATABASE_URL: "" } });
      processes.push(single);
      const local = await uploadOk(single, "restart.csv", text);
      const localJob = await startJob(single, local, "ip");
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
      for (const process of processes) await process.stop();
      await s3.stop();
      await pg.stop();
    }
  },
});
