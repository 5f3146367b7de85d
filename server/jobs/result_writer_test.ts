import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../config.ts";
import { Engine, loadEngineData } from "../enrichment/engine.ts";
import { parseIp } from "../enrichment/ip_input.ts";
import { registrableDomain } from "../enrichment/reverse_dns.ts";
import type { EnrichOptions } from "../enrichment/types.ts";
import { Store } from "../storage/store.ts";
import { CheckpointBuilder, CheckpointReader } from "./checkpoint_codec.ts";
import { DirectWriter } from "./direct_writer.ts";
import { ThreadedWriter } from "./threaded_writer.ts";

const engine = new Engine(await loadEngineData(loadConfig({})), {
  servers: ["127.0.0.1:9"],
  timeoutMs: 50,
  concurrency: 1,
});

const CELLS = [
  "8.8.8.8",
  "1.1.1.1",
  "23.24.25.26", // Comcast: consumer
  "81.2.69.142",
  "2001:4860:4860::8888",
  "192.168.1.1",
  "not an ip",
  "0.0.0.1",
  "8.8.8.8",
  "100.100.100.100",
  "203.0.114.5",
  "2c0f:f248::1",
];
const HOSTS: Record<string, string> = { "8.8.8.8": "dns.google" };

/** Rows through a builder and a reader, as a job and its writer do. */
function viaCheckpoint(options: EnrichOptions, startOver = false) {
  const counters = { processed: 0, successful: 0, failed: 0, filtered: 0 };
  const builder = new CheckpointBuilder(1);
  const reader = new CheckpointReader({ jobId: 1, options, counters });
  const results = [];
  const keys: number[][] = [];
  // Two checkpoints: places and organisations travel once (or, after a
  // start-over, once more).
  for (const part of [CELLS.slice(0, 6), CELLS.slice(6)]) {
    if (startOver && keys.length > 0) builder.startOver();
    for (const [i, cell] of part.entries()) {
      const parsed = parseIp(cell);
      const row = [cell, `row ${i}`];
      if (!parsed.ok) {
        builder.addFailed(i, row, parsed.ip, parsed.failure);
        continue;
      }
      const { place, network } = engine.locate(
        parsed.ip,
        parsed.version,
        options,
      );
      const hostname = options.domain ? HOSTS[parsed.ip] ?? null : null;
      builder.add(
        i,
        row,
        parsed.ip,
        builder.placeId(place),
        builder.networkId(network),
        hostname,
        options.domain ? registrableDomain(hostname) : null,
      );
    }
    results.push(...reader.read(builder.takeCheckpoint()));
    keys.push(reader.summaryKeys);
  }
  return { results, counters: reader.counters, keys };
}

/** The same rows through the engine's own enrich. */
function viaEngine(options: EnrichOptions) {
  return CELLS.map((cell) => {
    const result = engine.enrichParsed(parseIp(cell), options);
    if (options.domain && result.success) {
      result.hostname = HOSTS[result.ip] ?? null;
      result.domain = registrableDomain(result.hostname);
    }
    return Engine.checkFound(result);
  });
}

Deno.test("checkpoints give the engine's results, for every choice of options", () => {
  for (let bits = 0; bits < 16; bits++) {
    const options = {
      geolocation: !!(bits & 1),
      domain: !!(bits & 2),
      company: !!(bits & 4),
      network: !!(bits & 8),
    };
    const { results, counters } = viaCheckpoint(options);
    const expected = viaEngine(options);
    assertEquals(
      results.map((r) => r.enrichment),
      expected,
      JSON.stringify(options),
    );
    assertEquals(counters, {
      processed: CELLS.length,
      successful: expected.filter((e) => e.success).length,
      failed: expected.filter((e) => !e.success).length,
      filtered: expected.filter((e) => e.ispFiltered).length,
    });
    assertEquals(results[1].original, [CELLS[1], "row 1"]);
  }
});

Deno.test("after a start-over, places and organisations travel again under new numbers", () => {
  const options = {
    geolocation: true,
    domain: true,
    company: true,
    network: true,
  };
  const { results, keys } = viaCheckpoint(options, true);
  assertEquals(results.map((r) => r.enrichment), viaEngine(options));
  // The summary counts rows by these numbers: none may mean two things.
  const before = new Set(keys[0].filter((key) => key >= 0));
  ok(before.size > 0);
  assertEquals(keys[1].filter((key) => before.has(key)), []);
});

const newJob = {
  fileName: "f.csv",
  originalFileName: "f.csv",
  ipColumnName: "ip",
  ipColumnIndex: 0,
  headers: ["ip", "note"],
  delimiter: ",",
  totalIPs: 1000,
  options: { geolocation: true, domain: false, company: true, network: true },
};

async function withStore(fn: (store: Store, path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "test.db");
  const store = new Store(path);
  try {
    await fn(store, path);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const zero = () => ({ processed: 0, successful: 0, failed: 0, filtered: 0 });

/** 1000 rows in checkpoints of 100 to a writer. */
function writeJob(writer: DirectWriter | ThreadedWriter, jobId: number) {
  const seen: number[] = [];
  writer.begin({ jobId, options: newJob.options, counters: zero() });
  const builder = new CheckpointBuilder(jobId);
  for (let i = 0; i < 1000; i++) {
    const cell = i % 7 ? `8.8.${i >> 8}.${i & 255}` : "x";
    const parsed = parseIp(cell);
    if (!parsed.ok) {
      builder.addFailed(i, [cell, `n,"${i}"`], cell, { kind: "invalid" });
    } else {
      const { place, network } = engine.locate(cell, 4, newJob.options);
      builder.add(
        i,
        [cell, `n,"${i}"`],
        cell,
        builder.placeId(place),
        builder.networkId(network),
        null,
        null,
      );
    }
    if (builder.count === 100) {
      writer.write(
        builder.takeCheckpoint(),
        (job) => seen.push(job.processedIPs),
      );
    }
  }
  return seen;
}

Deno.test("a threaded writer commits checkpoints in order, like the store", () =>
  withStore(async (store, path) => {
    const threadedJob = store.createJob(newJob);
    const directJob = store.createJob(newJob);
    // Only processing jobs take rows.
    store.setStatus(threadedJob.id, "processing", ["pending"]);
    store.setStatus(directJob.id, "processing", ["pending"]);
    const writer = ThreadedWriter.spawn(path);
    try {
      const seen = writeJob(writer, threadedJob.id);
      const direct = new DirectWriter(store);
      writeJob(direct, directJob.id);
      await direct.waitForBacklogAtMost(0);
      await writer.waitForBacklogAtMost(0);
      assertEquals(seen, Array.from({ length: 10 }, (_, i) => (i + 1) * 100));
      const a = store.getJob(threadedJob.id)!;
      const b = store.getJob(directJob.id)!;
      assertEquals(a.processedIPs, 1000);
      assertEquals(
        [a.processedIPs, a.successfulIPs, a.failedIPs, a.filteredIPs],
        [b.processedIPs, b.successfulIPs, b.failedIPs, b.filteredIPs],
      );
      assertEquals(
        JSON.stringify(store.resultsBetween(threadedJob.id, 0, 1000)),
        JSON.stringify(store.resultsBetween(directJob.id, 0, 1000)),
      );
    } finally {
      writer.close();
    }
  }));

Deno.test("a checkpoint another writer moved fails the writer", () =>
  withStore(async (store, path) => {
    const job = store.createJob(newJob);
    store.setStatus(job.id, "processing", ["pending"]);
    const writer = ThreadedWriter.spawn(path);
    try {
      const checkpoint = () => {
        const builder = new CheckpointBuilder(job.id);
        builder.addFailed(0, ["x"], "x", { kind: "invalid" });
        return builder.takeCheckpoint();
      };
      writer.begin({
        jobId: job.id,
        options: newJob.options,
        counters: zero(),
      });
      writer.write(checkpoint(), () => {});
      // The same checkpoint again from the start: the counters do not match.
      writer.begin({
        jobId: job.id,
        options: newJob.options,
        counters: zero(),
      });
      writer.write(checkpoint(), () => {});
      const error = await writer.waitForBacklogAtMost(0).then(
        () => null,
        (e: Error) => e,
      );
      ok(/checkpoint moved/.test(String(error?.message)), `${error}`);
      assertEquals(writer.failed, true);
      assertEquals(store.getJob(job.id)!.processedIPs, 1);
    } finally {
      writer.close();
    }
  }));
