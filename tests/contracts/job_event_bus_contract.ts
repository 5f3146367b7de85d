// The behaviour every JobEventBus adapter must show, run against each one by
// job_event_bus_test.ts. `open` returns a publishing bus and a subscribing
// bus (two replicas' buses).
import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
} from "node:assert/strict";
import type {
  JobChange,
  JobEventBus,
} from "../../server/events/job_event_bus.ts";

export interface BusPair {
  publisher: JobEventBus;
  subscriber: JobEventBus;
  /** Resolves once the subscriber's subscription is live. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const INTERVAL_MS = 100;

export async function waitFor(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function jobEventBusContract(
  adapter: string,
  open: () => Promise<BusPair>,
): void {
  const test = (name: string, body: (pair: BusPair) => Promise<void>) =>
    Deno.test(`${adapter}: ${name}`, async () => {
      const pair = await open();
      // The bus logs a failing listener by design; keep test output clean.
      const log = console.error;
      console.error = () => {};
      try {
        await body(pair);
      } finally {
        console.error = log;
        await pair.close();
      }
    });

  test("a subscriber receives published changes", async (pair) => {
    const seen: [number, JobChange][] = [];
    pair.subscriber.subscribe((jobId, change) => seen.push([jobId, change]));
    await pair.ready();
    await pair.publisher.publish(4, { status: "processing", processed: 10 });
    await pair.publisher.publish(5, { status: "completed" });
    await waitFor(() => seen.length === 2);
    assertEquals(seen.toSorted((a, b) => a[0] - b[0]), [
      [4, { status: "processing", processed: 10 }],
      [5, { status: "completed" }],
    ]);
  });

  test("unsubscribe stops delivery; a failing listener spares others", async (pair) => {
    const kept: number[] = [];
    const dropped: number[] = [];
    const failures: unknown[] = [];
    pair.subscriber.subscribe(() => {
      failures.push("thrown");
      throw new Error("listener bug");
    });
    const unsubscribe = pair.subscriber.subscribe((id) => dropped.push(id));
    pair.subscriber.subscribe((id) => kept.push(id));
    await pair.ready();
    await pair.publisher.publish(1, {});
    await waitFor(() => kept.length === 1);
    unsubscribe();
    await pair.publisher.publish(2, {});
    await waitFor(() => kept.length === 2);
    await sleep(50);
    assertEquals(dropped, [1]);
    assertEquals(failures.length, 2);
  });

  test("a job's rapid changes are throttled and the newest arrives", async (pair) => {
    const seen: number[] = [];
    const other: number[] = [];
    pair.subscriber.subscribe((jobId, change) =>
      (jobId === 1 ? seen : other).push(change.processed as number)
    );
    await pair.ready();
    const started = Date.now();
    for (let processed = 1; processed <= 60; processed++) {
      await pair.publisher.publish(1, { processed });
      if (processed === 30) await pair.publisher.publish(2, { processed });
      await sleep(5);
    }
    const elapsed = Date.now() - started;
    await waitFor(() => seen.at(-1) === 60, 3000);
    assertEquals(seen[0], 1);
    ok(
      seen.length <= Math.ceil(elapsed / INTERVAL_MS) + 2,
      `${seen.length} changes in ${elapsed} ms`,
    );
    assertEquals(seen, seen.toSorted((a, b) => a - b));
    // Job 2's throttle is its own: its first change is not held back.
    assertEquals(other, [30]);
  });

  test("a change over the size limit is refused", async (pair) => {
    await rejects(
      async () => await pair.publisher.publish(1, { text: "x".repeat(9000) }),
      RangeError,
    );
  });

  test("close sends a change still waiting in its interval", async (pair) => {
    const seen: number[] = [];
    pair.subscriber.subscribe((_, change) => seen.push(change.n as number));
    await pair.ready();
    await pair.publisher.publish(3, { n: 1 });
    await pair.publisher.publish(3, { n: 2 });
    if (pair.publisher !== pair.subscriber) await pair.publisher.close();
    await waitFor(() => seen.at(-1) === 2);
  });
}
