// Proves the PostgreSQL clients the scale-out mode relies on work under Deno 2
// against a real server: postgres.js COPY in both directions and LISTEN that
// survives a dropped connection, and pg-boss creating its schema and moving
// batches of jobs with NOTIFY wake-ups instead of 2 s polls.
import {
  deepStrictEqual as assertEquals,
  ok as assert,
} from "node:assert/strict";
import postgres from "postgres";
import { PgBoss } from "pg-boss";
import { startPostgres } from "./helpers/postgres.ts";

const pg = await startPostgres("smoke");
const quiet = { onnotice: () => {} };

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  return await new Response(stream).text();
}

Deno.test("postgres.js COPY FROM STDIN and COPY TO STDOUT", async () => {
  const sql = postgres(pg.url, quiet);
  try {
    await sql`CREATE TABLE copy_rows (n int, ip text)`;
    const lines = Array.from({ length: 10_000 }, (_, n) => `${n}\t10.0.${n}\n`)
      .join("");
    const writable = await sql`COPY copy_rows (n, ip) FROM STDIN`.writable();
    const writer = new WritableStream<Uint8Array>({
      write: (chunk) =>
        new Promise((resolve, reject) =>
          writable.write(chunk, (error) => error ? reject(error) : resolve())
        ),
      close: () =>
        new Promise((resolve, reject) => {
          writable.once("finish", resolve);
          writable.once("error", reject);
          writable.end();
        }),
    });
    await ReadableStream.from([new TextEncoder().encode(lines)]).pipeTo(writer);
    const [{ count }] = await sql`SELECT count(*)::int AS count FROM copy_rows`;
    assertEquals(count, 10_000);
    const readable =
      await sql`COPY (SELECT n, ip FROM copy_rows ORDER BY n) TO STDOUT`
        .readable();
    const text = await collect(
      ReadableStream.from(readable as AsyncIterable<Uint8Array>),
    );
    assertEquals(text, lines);
  } finally {
    await sql.end();
  }
});

Deno.test("postgres.js LISTEN resubscribes after its connection is killed", async () => {
  const listener = postgres(pg.url, quiet);
  const admin = postgres(pg.url, quiet);
  try {
    const received: string[] = [];
    let listens = 0;
    await listener.listen(
      "smoke_events",
      (payload) => received.push(payload),
      () => listens++,
    );
    await admin.notify("smoke_events", "before");
    await waitFor(() => received.includes("before"));
    // Kill the listening backend as a failover or restart would.
    await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE query LIKE 'listen%' AND pid <> pg_backend_pid()`;
    await waitFor(() => listens >= 2, 10_000);
    await admin.notify("smoke_events", "after");
    await waitFor(() => received.includes("after"));
    assertEquals(listens >= 2, true);
  } finally {
    await listener.end();
    await admin.end();
  }
});

Deno.test("pg-boss installs its schema and delivers batches woken by NOTIFY", async () => {
  const boss = new PgBoss({
    connectionString: pg.url,
    useListenNotify: true,
    schedule: false,
  });
  boss.on("error", (error) => console.error("pg-boss:", error));
  await boss.start();
  try {
    assert(await boss.isInstalled());
    await boss.createQueue("smoke", { notify: true });
    const seen: number[] = [];
    const batches: number[] = [];
    await boss.work<{ n: number }>(
      "smoke",
      {
        batchSize: 5,
        pollingIntervalSeconds: 30,
        notifyPollingIntervalSeconds: 30,
      },
      // deno-lint-ignore require-await
      async (jobs) => {
        batches.push(jobs.length);
        for (const job of jobs) seen.push(job.data.n);
      },
    );
    // Let the worker's first (empty) poll pass, so only NOTIFY can wake it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const started = performance.now();
    await boss.insert("smoke", [1, 2, 3, 4, 5].map((n) => ({ data: { n } })));
    await waitFor(() => seen.length === 5, 5000);
    const latency = performance.now() - started;
    assertEquals(seen.toSorted(), [1, 2, 3, 4, 5]);
    assert(batches.some((size) => size > 1), `batches: ${batches}`);
    // With 30 s polls, only the NOTIFY can have delivered this fast.
    assert(latency < 5000, `took ${latency} ms`);
  } finally {
    await boss.stop({ graceful: false, timeout: 2000 });
  }
});

Deno.test("stop the test server", async () => {
  await pg.stop();
});

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
