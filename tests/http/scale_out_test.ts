// PostgreSQL mode across processes, as a scaled-out deployment runs: one
// PostgreSQL, an S3-compatible store, two API replicas and three workers,
// each its own process with its own data directory. A 200,000-row job
// uploaded and started on replica A is cut into chunks that all workers
// take; it is watched on replica B; the worker holding a chunk is SIGKILLed
// mid-job (the queue hands that chunk to another worker, which resumes it
// from the chunk's first row); the download from either replica is
// byte-identical to a single-process SQLite run of the same file. A second
// job cancelled on B stops within a second or two with its queue emptied.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import postgres from "postgres";
import type { ServerMessage } from "../../shared/wire.ts";
import { partKey } from "../../server/results/job_results.ts";
import {
  downloadText,
  getJob,
  startJob,
  uploadAndStart,
  uploadOk,
  waitForJob,
} from "../helpers/client.ts";
import { sessionFetch, visitor, visitorCookie } from "../helpers/cookie_jar.ts";
import { startSynthPtrServer } from "../helpers/dnsmasq.ts";
import { startPostgres } from "../helpers/postgres.ts";
import { startS3 } from "../helpers/s3_server.ts";
import { waitUntil } from "../helpers/wait.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

const ROWS = 200_000;
const DNS_CHUNK_ROWS = 20_000;
// Addresses repeat: each chunk looks each of its addresses up once
// (reverse DNS), so the job's lookups count its chunks' distinct addresses.
const ADDRESSES = 4_000;
const addressOf = (row: number) => (row * 7919) % ADDRESSES;

function csv(): string {
  const rows = ["ip,n"];
  for (let i = 0; i < ROWS; i++) {
    const a = addressOf(i);
    rows.push(`81.${(a >> 16) & 255}.${(a >> 8) & 255}.${a & 255},${i}`);
  }
  return rows.join("\n") + "\n";
}

Deno.test({
  name: "scaled out: one job's chunks on three workers, one killed",
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
    const chunksOf = (jobId: number) =>
      sql`SELECT chunk, first_row, processed, row_count, done, worker FROM job_chunks
        WHERE job_id = ${jobId} ORDER BY chunk`;
    try {
      const common = {
        DATABASE_URL: pg.url,
        ...s3.env,
        QUEUE_HEARTBEAT_SECONDS: "10",
        DNS_CHUNK_ROWS: String(DNS_CHUNK_ROWS),
        DNS_SERVERS: dns.address,
        DNS_TIMEOUT_MS: "10000",
        DNS_CONCURRENCY: "16",
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
      const workers = [
        await start("worker"),
        await start("worker"),
        await start("worker"),
      ];

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
      // Cut into chunks of at most DNS_CHUNK_ROWS rows (runs of the cuts
      // the upload's reader noted): Domain is on, so a few small ones, then
      // as few as DNS_CHUNK_ROWS allows (run_chunk.ts).
      const planned = await chunksOf(job.id);
      ok(planned.length >= 10 && planned.length <= 16, `${planned.length}`);
      ok(planned.every((c) => c.row_count <= DNS_CHUNK_ROWS));
      assertEquals(planned.reduce((sum, c) => sum + c.row_count, 0), ROWS);
      /** Distinct addresses of a chunk's rows. */
      const distinct = (c: Record<string, unknown>) =>
        new Set(
          Array.from(
            { length: Number(c.row_count) },
            (_, i) => addressOf(Number(c.first_row) + i),
          ),
        ).size;

      // Kill a worker while it holds a chunk it has committed rows of.
      let held: { worker: string } | undefined;
      await waitUntil(
        async () => {
          [held] = await sql`SELECT worker FROM job_chunks
          WHERE job_id = ${job.id} AND NOT done AND processed > 0 LIMIT 1`;
          return held !== undefined;
        },
        "a worker committed rows of a chunk",
        60_000,
      );
      const victim = workers.find((w) =>
        held!.worker.endsWith(`:${w.process.pid}`)
      )!;
      ok(victim, `worker ${held!.worker} is one of ours`);
      await victim.kill();
      const orphans = (await chunksOf(job.id)).filter((c) =>
        !c.done && c.worker === held!.worker
      ).map((c) => c.chunk);
      const atKill = await getJob(b, job.id);
      assertEquals(atKill.status, "processing");
      ok(atKill.processedIPs < ROWS, `${atKill.processedIPs} rows at the kill`);

      const done = await waitForJob(b, job.id, undefined, 180_000, 200);
      assertEquals(done.status, "completed");
      assertEquals([done.processedIPs, done.totalIPs], [ROWS, ROWS]);
      // A delivery the killed worker held may outlive its chunk (done by
      // then): it comes back after the heartbeat and ends as a no-op.
      await waitUntil(
        async () => await inQueue(job.id) === 0,
        "the job's queue drained",
        30_000,
      );
      const chunks = await chunksOf(job.id);
      ok(chunks.every((c) => c.done && c.processed === c.row_count));
      const workersUsed = new Set(chunks.map((c) => c.worker));
      ok(workersUsed.size > 1, `chunks ran on ${[...workersUsed]}`);
      for (const chunk of orphans) {
        ok(chunks[chunk].worker !== held!.worker, `chunk ${chunk} handed on`);
      }
      // Each address once per chunk run: a chunk run again counts its
      // second run's lookups only.
      const lookups = Object.values(done.hostnameLookups)
        .reduce((sum, n) => sum + n, 0);
      assertEquals(
        lookups,
        chunks.reduce((sum, c) => sum + distinct(c), 0),
        "host-name lookups",
      );
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
      ok(fromA === fromB, "the replicas' downloads differ");

      // Cancel on B: the job's waiting chunks leave the queue, the running
      // ones stop at their next progress commit.
      const cancelJob = await uploadAndStart(a, "cancel.csv", text, "ip");
      await waitForJob(b, cancelJob.id, (j) => j.processedIPs > 0, 60_000, 20);
      const cancel = await sessionFetch(
        `${b.url}/api/jobs/${cancelJob.id}/cancel`,
        { method: "POST" },
      );
      assertEquals(cancel.status, 200);
      await cancel.body?.cancel();
      await waitUntil(
        async () => await inQueue(cancelJob.id) === 0,
        "the cancelled job's chunks stopped",
        3000,
      );
      const stopped = await getJob(a, cancelJob.id);
      assertEquals(stopped.status, "cancelled");
      ok(stopped.processedIPs < ROWS);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assertEquals(
        (await getJob(a, cancelJob.id)).processedIPs,
        stopped.processedIPs,
      );

      const single = await startServer({
        env: {
          DATABASE_URL: "",
          DNS_SERVERS: dns.address,
          DNS_TIMEOUT_MS: "10000",
          DNS_CONCURRENCY: "8",
        },
      });
      processes.push(single);
      const localJob = await uploadAndStart(single, "scale.csv", text, "ip", {
        includeDomain: 1,
      });
      await waitForJob(single, localJob.id, undefined, 180_000, 200);
      const expected = await downloadText(single, localJob.id);
      assertEquals(fromA.length, expected.length);
      ok(fromA === expected, "PostgreSQL and SQLite downloads differ");

      // Clearing removes the job's parts in S3, its chunks and its shared
      // upload.
      const inS3 = (key: string) =>
        fetch(`${s3.endpoint}/${s3.bucket}/${key}`, { method: "HEAD" })
          .then((r) => r.status);
      const [{ meta }] = await sql`SELECT meta FROM job_chunks
        WHERE job_id = ${job.id} AND chunk = 0`;
      const part = partKey(job.id, 0, JSON.parse(meta).run, "csv");
      assertEquals(await inS3(uploaded.fileName), 200);
      assertEquals(await inS3(part), 200);
      {
        const cleared = await sessionFetch(`${b.url}/api/jobs/completed`, {
          method: "DELETE",
        });
        assertEquals(await cleared.json(), { cleared: 1 });
        assertEquals((await chunksOf(job.id)).length, 0);
        assertEquals(await inS3(uploaded.fileName), 404);
        assertEquals(await inS3(part), 404);
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
