// The job pipeline against a scripted DNS responder on loopback: a silent
// address holds only its own rows; rows behind it are read and looked up,
// then committed in order, 100 at a time; each lookup's outcome is counted.
// The job is one chunk, run as both modes run chunks (run_chunk.ts).
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { COMMA } from "../csv/dialect.ts";
import { startPtrResponder } from "../../tests/helpers/ptr_responder.ts";
import { loadConfig } from "../config.ts";
import { Engine, loadEngineData } from "../enrichment/engine.ts";
import { parseIp } from "../enrichment/ip_input.ts";
import type { EnrichOptions } from "../enrichment/types.ts";
import { Store } from "../storage/store.ts";
import { LocalBlobStore } from "../blobs/local_blobs.ts";
import { JobResults } from "../results/job_results.ts";
import type { ChunkCommit } from "../storage/chunk_progress.ts";
import { SqliteChunkProgress } from "../storage/sqlite_chunks.ts";
import { ChunkWriter } from "./chunk_writer.ts";
import { enrichChunk, type EnrichChunkContext } from "./enrich_chunk.ts";
import { readCell } from "./pending_row.ts";

const engineData = await loadEngineData(loadConfig({}));
const OPTIONS: EnrichOptions = {
  geolocation: true,
  domain: true,
  company: true,
  network: true,
};
const SILENT = "1.1.1.1";
const NO_NAME = "9.9.9.9";
const nameOf = (ip: string) => `h-${ip.replaceAll(".", "-")}.example.com`;
/** The i-th of the answering addresses (public, distinct). */
const answering = (i: number) => `23.${Math.floor(i / 250)}.${i % 250}.7`;

/**
 * A responder naming every address, and an engine asking it that gets
 * every answer however loaded the machine: few queries in flight (a loaded
 * loopback drops datagrams past its socket buffer) and a wait no answer
 * takes (the responder shares this event loop).
 */
function namingEverything() {
  const dns = startPtrResponder((ip) => ({ kind: "name", name: nameOf(ip) }));
  const engine = new Engine(engineData, {
    servers: [dns.address],
    timeoutMs: 30_000,
    concurrency: 16,
  });
  return { dns, engine };
}

/** A job over `ips` (one row each), ready to process. */
async function jobOver(ips: string[]) {
  const dir = await Deno.makeTempDir({ prefix: "process-job-" });
  const uploadsDir = join(dir, "uploads");
  await Deno.mkdir(uploadsDir);
  const lines = ["ip,n", ...ips.map((ip, n) => `${ip},${n}`)];
  await Deno.writeTextFile(join(uploadsDir, "in.csv"), lines.join("\n"));
  const store = new Store(join(dir, "enrichment.db"));
  const job = store.createJob({
    fileName: "in.csv",
    originalFileName: "in.csv",
    ipColumnName: "ip",
    ipColumnIndex: 0,
    headers: ["ip", "n"],
    dialect: COMMA,
    totalIPs: ips.length,
    options: OPTIONS,
  });
  store.setStatus(job.id, "processing", ["pending"]);
  const jobId = job.id;
  // Every commit announced, so onProgress sees each one; when the first
  // commit was asked for (onProgress comes after the commit and a read).
  let firstCommit = Infinity;
  const chunks = new class extends SqliteChunkProgress {
    override async commitChunk(commit: ChunkCommit) {
      firstCommit = Math.min(firstCommit, performance.now());
      return { ...await super.commitChunk(commit), announce: true };
    }
  }(store);
  const results = new JobResults(new LocalBlobStore(dir), chunks);
  /** Processes the job (one chunk) committing 100 rows at a time. */
  const run = async (
    engine: Engine,
    extra: Partial<EnrichChunkContext> = {},
  ) => {
    // The whole file as one chunk.
    const { size } = await Deno.stat(join(uploadsDir, "in.csv"));
    const [chunk] = await chunks.planChunks(jobId, [
      { chunk: 0, start: 0, end: size, firstRow: 0, rows: ips.length },
    ]);
    const writer = new ChunkWriter(
      store,
      chunks,
      results,
      chunk.chunk,
      "test",
      store.getJob(jobId)!,
    );
    await writer.start();
    return await enrichChunk({
      store,
      engine,
      uploadsDir,
      progressRows: 100,
      cancelled: () => false,
      onProgress: () => {},
      writer,
      range: chunk,
      ...extra,
    });
  };
  /** The job's stored rows and summary. */
  const stored = async () => {
    const job = store.getJob(jobId)!;
    return {
      rows: await results.between(job, 0, 1e9),
      summary: await results.summary(job),
    };
  };
  return { dir, store, jobId, run, stored, firstCommit: () => firstCommit };
}

Deno.test("a silent address holds only its own rows", async () => {
  const firstAsked = new Map<string, number>();
  const dns = startPtrResponder((ip) => {
    if (!firstAsked.has(ip)) firstAsked.set(ip, performance.now());
    if (ip === SILENT) return { kind: "none" };
    if (ip === NO_NAME) return { kind: "nxdomain" };
    return { kind: "name", name: nameOf(ip) };
  });
  // The silent address's wait is long enough for the rows behind it to be
  // read and asked on a loaded machine (reading them takes ~0.2 s alone).
  const engine = new Engine(engineData, {
    servers: [dns.address],
    timeoutMs: 3000,
    concurrency: 256,
  });
  // 5,048 rows, two per answering address, the silent one at row 5: more
  // rows than a window that waits for its slowest answer would read.
  const ips: string[] = [];
  for (let i = 0; i < 2523; i++) ips.push(answering(i), answering(i));
  ips.splice(5, 0, SILENT);
  ips.splice(10, 0, NO_NAME);
  const { dir, store, jobId, run, stored } = await jobOver(ips);
  const progress: { processed: number; at: number }[] = [];
  try {
    const outcome = await run(engine, {
      // Each commit (the last one completes the job).
      onProgress: (job) =>
        progress.push({ processed: job.processedIPs, at: performance.now() }),
    });
    assertEquals(outcome, "completed");
    // Every other address was asked before the silent one gave up (its
    // rows' batch is the first one committed).
    const firstCommit = progress[0].at;
    const askedLate = [...firstAsked].filter(([ip, at]) =>
      ip !== SILENT && at > firstCommit
    );
    assertEquals(askedLate.length, 0, "addresses asked after the first commit");
    // Commits of 100 rows (those queued during a commit go together
    // in the next), in order, the last one shorter.
    const processed = progress.map((p) => p.processed);
    assertEquals(processed[0], 100);
    processed.forEach((n, i) => {
      ok(n % 100 === 0 || n === ips.length, `commit ${i} at row ${n}`);
      ok(i === 0 || n > processed[i - 1], `commit ${i} after the one before`);
    });
    assertEquals(processed.at(-1), ips.length);
    const results = (await stored()).rows;
    assertEquals(results.map((r) => r.rowIndex), ips.map((_, i) => i));
    for (const result of results) {
      const ip = ips[result.rowIndex];
      const want = ip === SILENT || ip === NO_NAME ? null : nameOf(ip);
      assertEquals(result.enrichment.hostname, want, `row ${result.rowIndex}`);
    }
    // One lookup per distinct address, counted by how it ended.
    assertEquals(store.getJob(jobId)!.hostnameLookups, {
      answered: 2523,
      noName: 1,
      timedOut: 1,
      skipped: 0,
    });
  } finally {
    engine.dns.close();
    store.close();
    await dns.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("reading pauses when the window of rows is full", async () => {
  const firstAsked = new Map<string, number>();
  const dns = startPtrResponder((ip) => {
    if (!firstAsked.has(ip)) firstAsked.set(ip, performance.now());
    return ip === SILENT
      ? { kind: "none" }
      : { kind: "name", name: nameOf(ip) };
  });
  const engine = new Engine(engineData, {
    servers: [dns.address],
    timeoutMs: 2000,
    concurrency: 256,
  });
  // 20,000 rows, every address distinct, the silent one first; at most 500
  // rows in flight (read a file chunk at a time: a few thousand more).
  const ips = [SILENT];
  for (let i = 0; i < 19_999; i++) ips.push(answering(i));
  const { dir, store, jobId, run, firstCommit } = await jobOver(ips);
  try {
    const outcome = await run(engine, {
      limits: { rows: 500, bytes: 1 << 30, queuedLookups: 1 << 30 },
    });
    assertEquals(outcome, "completed");
    const early = [...firstAsked.values()].filter((at) => at < firstCommit());
    // Unbounded, nearly all 20,000 are asked while the silent one waits.
    ok(early.length < 8_000, `${early.length} addresses asked at first`);
    // Every row finished, every address's lookup counted once by how it
    // ended (on a loaded machine a query may be lost on loopback and time
    // out, or be skipped while the server rests: still one outcome).
    const job = store.getJob(jobId)!;
    assertEquals(job.processedIPs, ips.length);
    const lookups = job.hostnameLookups!;
    assertEquals(
      lookups.answered + lookups.noName + lookups.timedOut + lookups.skipped,
      ips.length,
    );
    ok(firstAsked.size > ips.length / 2, `${firstAsked.size} asked`);
  } finally {
    engine.dns.close();
    store.close();
    await dns.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a cancel ends a job waiting on a silent address at once", async () => {
  const dns = startPtrResponder(() => ({ kind: "none" }));
  const engine = new Engine(engineData, {
    servers: [dns.address],
    timeoutMs: 10_000,
    concurrency: 64,
  });
  const ips = Array.from({ length: 300 }, (_, i) => answering(i));
  const { dir, store, jobId, run } = await jobOver(ips);
  let cancelled = false;
  const cancelAt = performance.now() + 300;
  setTimeout(() => cancelled = true, 300);
  try {
    const outcome = await run(engine, {
      cancelled: () => cancelled,
    });
    assertEquals(outcome, "cancelled");
    const late = performance.now() - cancelAt;
    ok(late < 1000, `ended ${Math.round(late)} ms after the cancel`);
    assertEquals(store.getJob(jobId)!.processedIPs, 0);
  } finally {
    engine.dns.close();
    store.close();
    await dns.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a job past its address limit starts over and stores the same results", async () => {
  const { dns, engine } = namingEverything();
  // 30,000 rows (several file chunks) over 6,000 addresses and a bad cell;
  // a limit of 1,000 makes the job forget its addresses, places and
  // organisations several times, with rows of each still to come.
  const pool = Array.from(
    { length: 6000 },
    (_, i) => i % 500 === 0 ? "not an ip" : answering(i),
  );
  const ips = Array.from({ length: 30_000 }, (_, i) => pool[(i * 7919) % 6000]);
  const runs = [];
  try {
    for (const addressLimit of [1000, undefined]) {
      const { dir, store, jobId, run, stored } = await jobOver(ips);
      try {
        const outcome = await run(engine, { addressLimit });
        assertEquals(outcome, "completed");
        const job = store.getJob(jobId)!;
        runs.push({
          ...await stored(),
          lookups: job.hostnameLookups,
        });
      } finally {
        store.close();
        await Deno.remove(dir, { recursive: true });
      }
    }
    const [limited, whole] = runs;
    assertEquals(limited.rows.length, ips.length);
    // Row by row: a diff of 30,000 rows would take the test's memory.
    limited.rows.forEach((result, i) =>
      assertEquals(result, whole.rows[i], `row ${i}`)
    );
    assertEquals(limited.summary, whole.summary);
    // Each address once per start: more lookups than distinct addresses.
    assertEquals(whole.lookups!.answered, 6000 - 12);
    ok(
      limited.lookups!.answered > 3 * whole.lookups!.answered,
      `${limited.lookups!.answered} lookups`,
    );
  } finally {
    engine.dns.close();
    await dns.stop();
  }
});

Deno.test("a job reads each cell as the lookup of that cell does, plain IPv4 or not", async () => {
  const { dns, engine } = namingEverything();
  // Plain IPv4 cells (read from their bytes) beside the same addresses in
  // other forms, repeated, and cells that are no address.
  const forms = [
    "8.8.8.8",
    '"8.8.8.8"',
    " 8.8.8.8",
    "8.8.8.8:53",
    "08.8.8.8",
    "8.8.8.08",
    "::ffff:8.8.8.8",
    "10.0.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "256.1.1.1",
    "1.2.3",
    "1.2.3.4.",
    "1..2.3",
    "1.2.3.4567",
    "2001:4860:4860::8888",
    "",
    answering(1),
    `"${answering(2)}"`,
  ];
  const ips = [...forms, ...forms.toReversed()];
  const { dir, store, run, stored } = await jobOver(ips);
  try {
    assertEquals(await run(engine), "completed");
    const { rows } = await stored();
    assertEquals(rows.length, ips.length);
    for (const { rowIndex, enrichment } of rows) {
      const cell = ips[rowIndex].replaceAll('"', "");
      let want: { ip: string; ipUsed: string | null; ok: boolean } | null =
        null;
      readCell(cell, null, (parsed, ipUsed) => {
        want = { ip: parsed.ip, ipUsed, ok: parsed.ok };
      }, (ip, _failure, ipUsed) => want = { ip, ipUsed, ok: false });
      const { ip, ipUsed, ok: found } = want!;
      assertEquals(
        [enrichment.ip, enrichment.ip_used, enrichment.success],
        [ip, ipUsed, found && enrichment.success],
        `row ${rowIndex}: ${ips[rowIndex]}`,
      );
      if (!found) assertEquals(enrichment.success, false, ips[rowIndex]);
      const parsed = parseIp(ip);
      if (parsed.ok) {
        const alone = engine.enrichParsed(parsed, OPTIONS);
        assertEquals(
          [enrichment.country_code, enrichment.asn, enrichment.network_type],
          [alone.country_code, alone.asn, alone.network_type],
          ips[rowIndex],
        );
      }
    }
  } finally {
    engine.dns.close();
    store.close();
    await dns.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
