// PostgreSQL mode across processes, as a scaled-out deployment runs: one
// PostgreSQL, an S3-compatible store, two API replicas and workers, each its
// own process with its own data directory. A job uploaded and started on
// replica A, watched on replica B, survives its worker being SIGKILLed
// mid-job (the queue hands it to another worker, which resumes from the last
// checkpoint), and the download from either replica is byte-identical to a
// single-process SQLite run of the same file.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import postgres from "postgres";
import type { ServerMessage } from "../../shared/wire.ts";
import {
  downloadText,
  getJob,
  startJob,
  uploadOk,
  waitForJob,
} from "../helpers/client.ts";
import { sessionFetch, visitor, visitorCookie } from "../helpers/cookie_jar.ts";
import { startSynthPtrServer } from "../helpers/dnsmasq.ts";
import { startPostgres } from "../helpers/postgres.ts";
import { startS3 } from "../helpers/s3_server.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

const ROWS = 20_000;

function csv(): string {
  const rows = ["ip,n"];
  for (let i = 0; i < ROWS; i++) {
    rows.push(`81.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255},${i}`);
  }
  return rows.join("\n") + "\n";
}

async function waitUntil(test: () => boolean, what: string) {
  const deadline = Date.now() + 5000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test({
  name: "scaled out: replicas, workers, a killed worker, same download",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dns = await startSynthPtrServer();
    const pg = await startPostgres("scale");
    const s3 = await startS3();
    const processes: RunningServer[] = [];
    const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    /** Queue messages of a job not yet finished (waiting or running). */
    const inQueue = (jobId: number) =>
      sql`SELECT count(*)::int AS n FROM pgboss.job
        WHERE (data->>'jobId')::int = ${jobId}
          AND state IN ('created', 'retry', 'active')`.then(([row]) => row.n);
    try {
      const common = {
        DATABASE_URL: pg.url,
        ...s3.env,
        QUEUE_HEARTBEAT_SECONDS: "10",
        DNS_SERVERS: dns.address,
        DNS_TIMEOUT_MS: "10000",
        DNS_CONCURRENCY: "2",
        JOB_CONCURRENCY: "1",
      };
      const start = async (role: "api" | "worker") => {
        const started = await startServer({
          env: { ...common, ROLE: role },
          worker: role === "worker",
        });
        processes.push(started);
        return started;
      };
      const [a, b] = [await start("api"), await start("api")];
      const first = await start("worker");

      // One visitor on both replicas: jobs belong to the session that made
      // them, and the replicas share the secret that signs its cookie.
      await visitorCookie(a.url);
      const socket = visitor.webSocket(b.url.replace("http", "ws") + "/ws");
      const seen: ServerMessage[] = [];
      socket.onmessage = (event) => seen.push(JSON.parse(event.data));
      await new Promise((resolve) => socket.onopen = resolve);

      const text = csv();
      const uploaded = await uploadOk(a, "scale.csv", text);
      const job = await startJob(a, uploaded, "ip", { includeDomain: 1 });
      socket.send(JSON.stringify({ type: "subscribe", jobId: job.id }));

      // B reports progress made by a worker for a job A started.
      const running = await waitForJob(b, job.id, (j) => j.processedIPs >= 500);
      ok(running.processedIPs < ROWS, "the job must still be running");
      await first.kill();
      const atKill = await getJob(b, job.id);
      assertEquals(atKill.status, "processing");
      ok(atKill.processedIPs < ROWS, `${atKill.processedIPs} rows at the kill`);

      // With no worker alive a new job stays queued; cancelling it on B
      // takes its message off the queue.
      const small = await uploadOk(a, "small.csv", "ip\n8.8.8.8\n");
      const queued = await startJob(a, small, "ip");
      assertEquals(await inQueue(queued.id), 1);
      const cancel = await sessionFetch(
        `${b.url}/api/jobs/${queued.id}/cancel`,
        {
          method: "POST",
        },
      );
      assertEquals(cancel.status, 200);
      await cancel.body?.cancel();
      assertEquals(await inQueue(queued.id), 0);

      // Two fresh workers; the queue hands the lapsed job to one of them.
      await start("worker");
      await start("worker");
      const done = await waitForJob(b, job.id, undefined, 120_000, 200);
      assertEquals(done.status, "completed");
      assertEquals(done.processedIPs, ROWS);
      assertEquals(await inQueue(job.id), 0);
      const cancelled = await getJob(a, queued.id);
      assertEquals([cancelled.status, cancelled.processedIPs], [
        "cancelled",
        0,
      ]);
      // Changes are coalesced for up to 250 ms before they go out.
      await waitUntil(
        () =>
          seen.some((m) =>
            m.type === "jobUpdate" && m.data.job.status === "completed"
          ),
        "B's subscriber saw the job complete",
      );
      ok(
        seen.filter((m) => m.type === "jobUpdate").length >= 3,
        "B's subscriber saw progress",
      );
      socket.close();

      const fromA = await downloadText(a, job.id);
      const fromB = await downloadText(b, job.id);
      assertEquals(fromA, fromB);

      const single = await startServer({
        env: {
          DATABASE_URL: "",
          DNS_SERVERS: dns.address,
          DNS_TIMEOUT_MS: "10000",
          DNS_CONCURRENCY: "8",
        },
      });
      processes.push(single);
      const local = await uploadOk(single, "scale.csv", text);
      const localJob = await startJob(single, local, "ip", {
        includeDomain: 1,
      });
      await waitForJob(single, localJob.id, undefined, 120_000, 200);
      const expected = await downloadText(single, localJob.id);
      assertEquals(fromA.length, expected.length);
      ok(fromA === expected, "PostgreSQL and SQLite downloads differ");

      // Clearing drops the job's results partition and its shared upload.
      const inS3 = () =>
        fetch(`${s3.endpoint}/${s3.bucket}/${uploaded.fileName}`, {
          method: "HEAD",
        }).then((r) => r.status);
      assertEquals(await inS3(), 200);
      {
        const partition = () =>
          sql`SELECT to_regclass(${`results_${job.id}`}) AS name`
            .then(([row]) => row.name);
        assertEquals(await partition(), `results_${job.id}`);
        const cleared = await sessionFetch(`${b.url}/api/jobs/completed`, {
          method: "DELETE",
        });
        assertEquals(await cleared.json(), { cleared: 1 });
        assertEquals(await partition(), null);
        assertEquals(await inS3(), 404);
      }
    } finally {
      await sql.end();
      for (const process of processes) await process.stop();
      await s3.stop();
      await pg.stop();
      await dns.stop();
    }
  },
});
