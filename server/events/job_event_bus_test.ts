// The JobEventBus contract against two PostgreSQL buses (two replicas) on a
// throwaway server, plus the bus's recovery from a killed LISTEN connection.
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import postgres from "postgres";
import { startPostgres } from "../../tests/helpers/postgres.ts";
import {
  INTERVAL_MS,
  jobEventBusContract,
  waitFor,
} from "../../tests/contracts/job_event_bus_contract.ts";
import { PgJobEventBus } from "./pg_job_event_bus.ts";

const pg = await startPostgres("events");

let channels = 0;
jobEventBusContract("postgres", () => {
  // A channel per test, so one test's late changes cannot reach the next.
  const channel = `job_events_test_${++channels}`;
  const options = { databaseUrl: pg.url, minIntervalMs: INTERVAL_MS, channel };
  const publisher = new PgJobEventBus(options);
  const subscriber = new PgJobEventBus(options);
  return Promise.resolve({
    publisher,
    subscriber,
    ready: () => subscriber.ready(),
    async close() {
      await publisher.close().catch(() => {});
      await subscriber.close();
    },
  });
});

Deno.test("postgres: after a lost connection, resync is called and changes flow again", async () => {
  const options = { databaseUrl: pg.url, channel: "job_events_resync" };
  const publisher = new PgJobEventBus(options);
  const subscriber = new PgJobEventBus(options);
  const admin = postgres(pg.url, { onnotice: () => {} });
  try {
    const seen: number[] = [];
    let resyncs = 0;
    subscriber.subscribe((jobId) => seen.push(jobId));
    subscriber.onResync(() => resyncs++);
    await subscriber.ready();
    await publisher.publish(1, {});
    await waitFor(() => seen.length === 1);
    assertEquals(resyncs, 0);
    await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE query ILIKE 'listen%job_events_resync%'`;
    await waitFor(() => resyncs === 1, 10_000);
    await publisher.publish(2, {});
    await waitFor(() => seen.length === 2);
    assertEquals(seen, [1, 2]);
  } finally {
    await admin.end();
    await publisher.close();
    await subscriber.close();
  }
});

Deno.test("postgres: an unreachable database fails ready(), not the process", async () => {
  const bus = new PgJobEventBus({
    databaseUrl: "postgres://postgres@127.0.0.1:1/none",
  });
  const quiet = console.error;
  console.error = () => {};
  try {
    bus.subscribe(() => {});
    await rejects(() => bus.ready(), /ECONNREFUSED/);
    // The failed LISTEN is forgotten, so subscribing again tries again.
    bus.subscribe(() => {});
    await rejects(() => bus.ready(), /ECONNREFUSED/);
  } finally {
    console.error = quiet;
    await bus.close();
  }
});

Deno.test("stop the test server", async () => {
  await pg.stop();
});
