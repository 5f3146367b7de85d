// The pg-boss JobQueue against a throwaway PostgreSQL: chunks split between
// two workers with each taken once, a chunk redelivered after its worker
// process is SIGKILLed (by expiry and by missed heartbeat), a failing chunk
// retried, a late settle fenced to its own delivery, and cancel removing only
// a job's queued chunks.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import postgres from "postgres";
import { startPostgres } from "../../tests/helpers/postgres.ts";
import type { ChunkMessage, QueuedChunk } from "./job_queue.ts";
import { PgBossQueue, type PgBossQueueOptions } from "./pg_boss_queue.ts";

const pg = await startPostgres("queue");

function chunksFor(jobId: number, count: number): ChunkMessage[] {
  return Array.from({ length: count }, (_, chunk) => ({
    jobId,
    chunk,
    start: chunk * 1000,
    end: (chunk + 1) * 1000,
    firstRow: chunk * 50,
  }));
}

async function waitFor(check: () => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const open = (schema: string, settings: Partial<PgBossQueueOptions> = {}) =>
  PgBossQueue.open({
    databaseUrl: pg.url,
    schema,
    heartbeatSeconds: null,
    expireInSeconds: 2,
    monitorIntervalSeconds: 1,
    ...settings,
  });

Deno.test("two workers share chunks and each chunk is taken once", async () => {
  const producer = await open("shared");
  const workers = [await open("shared"), await open("shared")];
  try {
    const taken: { worker: number; chunk: number }[] = [];
    for (const [worker, queue] of workers.entries()) {
      await queue.work(async (chunk) => {
        taken.push({ worker, chunk: chunk.chunk });
        await new Promise((resolve) => setTimeout(resolve, 30));
      }, { concurrency: 2 });
    }
    const started = performance.now();
    await producer.enqueue(chunksFor(7, 40));
    await waitFor(() => taken.length >= 40);
    const elapsed = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assertEquals(taken.map((t) => t.chunk).toSorted((a, b) => a - b), [
      ...Array(40).keys(),
    ]);
    for (const worker of [0, 1]) {
      ok(taken.some((t) => t.worker === worker), `worker ${worker} idle`);
    }
    // 40 chunks of 30 ms over 4 slots: ~0.3 s of work; 2 s polls would show.
    ok(elapsed < 5000, `took ${elapsed} ms`);
    assertEquals(await producer.pending(7), 0);
  } finally {
    for (const queue of [producer, ...workers]) await queue.close();
  }
});

async function killWorkerMidChunk(mode: "expiry" | "heartbeat") {
  const schema = `lost_${mode}`;
  const settings = mode === "heartbeat"
    ? { heartbeatSeconds: 10, expireInSeconds: 3600 }
    : {};
  const producer = await open(schema, settings);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./testdata/stalling_worker.ts", import.meta.url).pathname,
      pg.url,
      schema,
      mode,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let output = "";
  const readUntil = async (text: string) => {
    while (!output.includes(text)) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`worker exited before "${text}": ${output}`);
      output += value;
    }
  };
  let survivor: PgBossQueue | undefined;
  try {
    await readUntil("ready");
    await producer.enqueue(chunksFor(9, 1));
    await readUntil('"jobId":9');
    const killedAt = Date.now();
    child.kill("SIGKILL");
    await child.status;
    const redelivered: QueuedChunk[] = [];
    survivor = await open(schema, settings);
    await survivor.work((chunk) => {
      redelivered.push(chunk);
      return Promise.resolve();
    });
    await waitFor(() => redelivered.length > 0, 40_000);
    assertEquals(redelivered[0].jobId, 9);
    assertEquals(redelivered[0].chunk, 0);
    ok(redelivered[0].attempt >= 1, `attempt ${redelivered[0].attempt}`);
    return Date.now() - killedAt;
  } finally {
    await lines.cancel().catch(() => {});
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await survivor?.close();
    await producer.close();
  }
}

Deno.test("a chunk whose worker is killed goes to another after expiry", async () => {
  await killWorkerMidChunk("expiry");
});

Deno.test("a killed worker's chunk comes back once its heartbeat lapses", async () => {
  // The default setting: a long expiry, so only the missed heartbeat
  // (10 s, pg-boss's minimum) can explain the redelivery.
  const waited = await killWorkerMidChunk("heartbeat");
  ok(waited < 35_000, `redelivered after ${waited} ms`);
});

Deno.test("a live worker's heartbeat keeps a long chunk from redelivery", async () => {
  const settings = { heartbeatSeconds: 10, expireInSeconds: 3600 };
  const workers = [
    await open("long", settings),
    await open("long", settings),
  ];
  try {
    const deliveries: number[] = [];
    let finished = false;
    for (const worker of workers) {
      await worker.work(async (chunk) => {
        deliveries.push(chunk.attempt);
        // Longer than the heartbeat interval, shorter than the expiry.
        await new Promise((resolve) => setTimeout(resolve, 14_000));
        finished = true;
      });
    }
    await workers[0].enqueue(chunksFor(5, 1));
    await waitFor(() => finished, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assertEquals(deliveries, [0]);
    assertEquals(await workers[0].pending(5), 0);
  } finally {
    for (const worker of workers) await worker.close();
  }
});

// As a worker stopped (SIGSTOP) past its chunk's expiry and then let go on:
// its settle of the chunk is fenced to its own delivery.
Deno.test("a worker's late settle leaves the chunk's newer delivery alone", async () => {
  const late = await open("fenced");
  const next = await open("fenced");
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (...parts: unknown[]) => warnings.push(parts.join(" "));
  const held = () => {
    let release!: () => void;
    const wait = new Promise<void>((resolve) => release = resolve);
    return { wait, release };
  };
  const lateHeld = held();
  const nextHeld = held();
  const deliveries: number[] = [];
  try {
    await late.work(async (chunk) => {
      deliveries.push(chunk.attempt);
      await lateHeld.wait;
      throw new Error("this worker's connection was lost meanwhile");
    });
    await late.enqueue(chunksFor(6, 1));
    await waitFor(() => deliveries.length === 1);
    await next.work(async (chunk) => {
      deliveries.push(chunk.attempt);
      await nextHeld.wait;
    });
    // Expired, and handed to the other worker.
    await waitFor(() => deliveries.length === 2, 30_000);
    assertEquals(deliveries, [0, 1]);
    lateHeld.release();
    await waitFor(() =>
      warnings.some((line) => line.includes("job 6 chunk 0: no longer"))
    );
    const state = async () =>
      (await sql`SELECT state, retry_count FROM fenced.job
        WHERE (data->>'jobId')::int = 6`).map((row) => ({ ...row }));
    assertEquals(await state(), [{ state: "active", retry_count: 1 }]);
    nextHeld.release();
    for (;;) {
      if ((await state())[0].state === "completed") break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assertEquals(deliveries, [0, 1]);
  } finally {
    console.warn = warn;
    lateHeld.release();
    nextHeld.release();
    await sql.end();
    for (const queue of [late, next]) await queue.close();
  }
});

Deno.test("a chunk whose handler throws is retried", async () => {
  const queue = await open("retry");
  try {
    const attempts: number[] = [];
    await queue.work((chunk) => {
      attempts.push(chunk.attempt);
      return attempts.length < 3
        ? Promise.reject(new Error("lookup failed"))
        : Promise.resolve();
    });
    await queue.enqueue(chunksFor(3, 1));
    await waitFor(() => attempts.length === 3);
    assertEquals(attempts, [0, 1, 2]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assertEquals(await queue.pending(3), 0);
  } finally {
    await queue.close();
  }
});

Deno.test("cancel removes a job's queued chunks and no others", async () => {
  const queue = await open("cancel");
  try {
    await queue.enqueue([...chunksFor(1, 10), ...chunksFor(2, 5)]);
    assertEquals(await queue.pending(1), 10);
    assertEquals(await queue.cancel(1), 10);
    assertEquals(await queue.pending(1), 0);
    assertEquals(await queue.pending(2), 5);
    assertEquals(await queue.cancel(1), 0);
    const taken: number[] = [];
    await queue.work((chunk) => {
      taken.push(chunk.jobId);
      return Promise.resolve();
    });
    await waitFor(() => taken.length >= 5);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assertEquals(taken, [2, 2, 2, 2, 2]);
  } finally {
    await queue.close();
  }
});

Deno.test("stop the test server", async () => {
  await pg.stop();
});
