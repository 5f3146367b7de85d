// A job's results as part files: every field round-trips through a chunk's
// columns; the download is the header and the chunks' kept lines, in the
// download's format, past chunks whose rows were all left out; a preview
// page spans chunks; a completed job's summary is kept and read back; rows
// of one key are written with their key's cells and their own.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { ENRICHMENT_FIELD_TABLE } from "../../shared/enrichment_fields.ts";
import { LocalBlobStore } from "../blobs/local_blobs.ts";
import { COMMA, formatRows } from "../csv/dialect.ts";
import { emptyEnrichment, type Enrichment } from "../enrichment/types.ts";
import { outputCells, outputHeader, outputRow } from "./output_row.ts";
import { COUNT_CAP } from "../storage/preview_filters.ts";
import type { StoredResult } from "../storage/result_rows.ts";
import { SqliteChunkProgress } from "../storage/sqlite_chunks.ts";
import { Store } from "../storage/store.ts";
import {
  newJob,
  outputRowOf,
  seedRows,
} from "../../tests/helpers/seed_results.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import { ChunkOutput } from "./chunk_output.ts";
import { JobResults } from "./job_results.ts";
import { rowKey } from "../jobs/row_results.ts";
import {
  ColumnsBuilder,
  decodeColumns,
  encodeColumns,
  resultAt,
} from "./result_columns.ts";

/** An enrichment whose every field holds a value of its own. */
function distinctValues(ip: string): Enrichment {
  const e = emptyEnrichment(ip);
  const values = e as unknown as Record<string, string | number | null>;
  ENRICHMENT_FIELD_TABLE.forEach(({ name, sql }, i) => {
    values[name] = sql === "REAL" ? i + 0.5 : `${name} of ${ip}, "=1"`;
  });
  e.success = true;
  return e;
}

function row(i: number, filtered: boolean): StoredResult {
  const ip = `203.0.113.${i % 250}`;
  return {
    rowIndex: i,
    original: [`name ${i}`, ip, i % 7 ? "" : "=cmd|' /C calc'!A0"],
    enrichment: { ...distinctValues(ip), ispFiltered: filtered },
  };
}

async function withResults(
  fn: (store: Store, results: JobResults) => Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "job-results-" });
  const store = new Store(join(dir, "test.db"));
  try {
    await fn(
      store,
      new JobResults(new LocalBlobStore(dir), new SqliteChunkProgress(store)),
    );
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("every field comes back from a chunk's columns as it went in", () => {
  const failed = emptyEnrichment("10.0.0.1");
  failed.failure = { kind: "reserved", range: "private" };
  const rows: StoredResult[] = [
    {
      rowIndex: 7,
      original: ["8.8.8.8", ""],
      enrichment: distinctValues("8.8.8.8"),
    },
    { rowIndex: 8, original: ["10.0.0.1"], enrichment: failed },
  ];
  const builder = new ColumnsBuilder(COMMA);
  for (const r of rows) {
    const { rowIndex, line, enrichment } = outputRowOf(COMMA, r);
    builder.add(rowIndex, line, enrichment, builder.newGroup(enrichment));
  }
  const columns = decodeColumns(encodeColumns(builder.build()));
  assertEquals([0, 1].map((i) => resultAt(columns, i)), rows);
});

Deno.test("the download is the chunks' kept rows in the download's format", () =>
  withResults(async (store, results) => {
    const job = store.createJob(newJob);
    // Chunk 1 is all left out; the others keep every other row.
    const rows = Array.from(
      { length: 30 },
      (_, i) => row(i, (i >= 10 && i < 20) || i % 2 === 1),
    );
    await seedRows(store, results, job.id, rows, { chunkRows: 10 });
    const done = store.getJob(job.id)!;
    assertEquals(done.status, "completed");
    const text = await new Response(await results.csvBody(done)).text();
    const kept = rows.filter((r) => !r.enrichment.ispFiltered);
    const columns = outputCells(done.options);
    assertEquals(
      text,
      formatRows([
        outputHeader(done),
        ...kept.map((r) => outputRow(done, columns, r)),
      ]),
    );
    // A page that starts in one chunk and ends in the next.
    const page = await results.preview(done, { status: "kept" }, 2, 3);
    assertEquals(page.rows, kept.slice(3, 6));
    assertEquals(page.total, kept.length);
    // The summary of a completed job is added up once and kept.
    const summary = await results.summary(done);
    assertEquals(summary.rows.total, 30);
    assertEquals(await results.summary(done), summary);
    assertEquals(
      (await Array.fromAsync(results.keptPages(done))).flat(),
      kept,
    );
    await results.deleteJob(job.id);
    assertEquals(
      await results.blobs.listOlderThan(new Date(Date.now() + 1e9), "results/"),
      [],
    );
  }));

Deno.test("a text search counts up to the cap", () =>
  withResults(async (store, results) => {
    const job = store.createJob(newJob);
    const rows = Array.from({ length: COUNT_CAP + 5 }, (_, i) => {
      const r = row(i, false);
      r.enrichment.company = "Big Co";
      return r;
    });
    await seedRows(store, results, job.id, rows, { chunkRows: 4000 });
    const done = store.getJob(job.id)!;
    const found = await results.preview(done, { text: "big" }, 1, 10);
    assertEquals([found.total, found.totalAtLeast], [COUNT_CAP, true]);
    assertEquals(found.rows, rows.slice(0, 10));
    const all = await results.preview(done, {}, 1001, 10);
    assertEquals([all.total, all.totalAtLeast], [COUNT_CAP + 5, false]);
    assertEquals(all.rows, rows.slice(10_000, 10_005));
  }));

Deno.test("a text search reads each chunk's names", () =>
  withResults(async (store, results) => {
    const job = store.createJob(newJob);
    const rows = Array.from({ length: 30 }, (_, i) => {
      const r = row(i, i % 3 === 0);
      r.enrichment.company = i % 2 ? "Odd Networks" : "Even Co";
      r.enrichment.asn = `AS${64500 + (i % 2)} Example`;
      return r;
    });
    await seedRows(store, results, job.id, rows, { chunkRows: 10 });
    const done = store.getJob(job.id)!;
    const odd = rows.filter((_, i) => i % 2);
    const oddKept = odd.filter((r) => !r.enrichment.ispFiltered);
    const search = async () =>
      [
        await results.preview(done, { text: "ODD" }, 2, 10),
        await results.preview(done, { text: "as64501", status: "kept" }, 1, 20),
        await results.preview(done, { text: "networks e" }, 1, 10),
      ].map((p) => [p.total, p.rows]);
    const expected = [[15, odd.slice(10)], [oddKept.length, oddKept], [0, []]];
    assertEquals(await search(), expected);
  }));

Deno.test("a summary reads the chunks' tails", () =>
  withResults(async (store, results) => {
    const job = store.createJob(newJob);
    // Chunk 0: 600 cities twice each (its head holds 500 lists' keys),
    // "X" once (in its tail); chunk 1: "X" 100 times. X's total needs
    // chunk 0's tail.
    const cities = [
      ...Array.from({ length: 1200 }, (_, i) => `A${i >> 1}`),
      "X",
      ...Array.from({ length: 1201 }, (_, i) => i < 100 ? "X" : `T${i}`),
    ];
    const rows = cities.map((city, i) => {
      const r = row(i, false);
      Object.assign(r.enrichment, { city, country_code: "DE" });
      return r;
    });
    await seedRows(store, results, job.id, rows, { chunkRows: 1201 });
    const done = store.getJob(job.id)!;
    const summary = await results.summary(done);
    const top = summary.topCities.map((c) => [c.city, c.count]);
    assertEquals(top.slice(0, 3), [["X", 101], ["A0", 2], ["A1", 2]]);
    const again = async () => {
      await results.blobs.delete(`results/${job.id}/summary.json`);
      const fresh = new JobResults(results.blobs, results.chunks);
      return await fresh.summary(done);
    };
    assertEquals(await again(), summary);
  }));

Deno.test("rows of one key share their line's enrichment, not their own cells", () => {
  const job = {
    ...newJob,
    id: 1,
    headers: ["name", "ip", "note"],
  } as unknown as JobRecord;
  const shared = distinctValues("198.51.100.1");
  shared.failure = { kind: "no_data" };
  // Own cells: quotes and a comma, none, a formula's shape, spaces, beyond
  // ASCII, plain ASCII.
  const hostnames = [
    `host-0.example, "x"`,
    null,
    `host-2.example, "x"`,
    "bücher.example",
    "plain.example",
  ];
  const ips = ["198.51.100.1", "198.51.100.2", "x", "::1", "198.51.100.5"];
  const rows: StoredResult[] = ips.map((ip, i) => ({
    rowIndex: i,
    // Quotes, a comma, a row shorter than the header, a formula's shape.
    original: i === 1 ? [`"a", b`] : [`n${i}`, ip, i === 2 ? "=1+1" : ""],
    enrichment: {
      ...shared,
      ip,
      hostname: hostnames[i],
      domain: i === 4 ? "example" : `=domain${i}`,
      ip_used: i === 2 ? null : ` ${ip} `,
    },
  }));
  const output = new ChunkOutput(job);
  // One key for all: only the cells of a row's own may differ.
  for (const r of rows) output.addRow(outputRowOf(COMMA, r), 5);
  const parts = output.finish();
  const text = new TextDecoder().decode(parts.kept[0]);
  assertEquals(
    text,
    formatRows(rows.map((r) => outputRow(job, outputCells(job.options), r))),
  );
});

Deno.test("a line's new cells are written as the dialect and formula rules say", () => {
  // Plain ASCII, quotes and delimiters, a formula's shape, beyond ASCII,
  // negative and fractional numbers, empty.
  const texts = [
    "plain text",
    `a;b,"c"\tt`,
    "=SUM(A1)",
    "-dash",
    "Zürich 東京",
  ];
  const numbers = [-33.8688, 0.5, 151, -0];
  const value = (sql: string, seed: number) =>
    seed % 6 === 5
      ? null
      : sql === "REAL"
      ? numbers[seed % numbers.length]
      : texts[seed % texts.length];
  // Rows 0 to 5 of no key; the others of places 0 to 2 and organisations
  // 0 and 1 in turn, their values by place and organisation; row 14's
  // place could not be read (it shows no place's or organisation's).
  const rows: StoredResult[] = Array.from({ length: 15 }, (_, i) => {
    const e = emptyEnrichment(`198.51.100.${i}`);
    const values = e as unknown as Record<string, string | number | null>;
    ENRICHMENT_FIELD_TABLE.forEach(({ name, sql, group }, f) => {
      const seed = i < 6 || ["domain", "always"].includes(group)
        ? i + f
        : group === "geolocation"
        ? 20 + i % 3 + f
        : 40 + i % 2 + f;
      values[name] = i === 14 && seed >= 20 ? null : value(sql, seed);
    });
    e.success = i % 4 !== 0 && i !== 14;
    if (i === 14) e.failure = { kind: "corrupt_record", detail: "bad" };
    else if (!e.success) e.failure = { kind: "no_data" };
    return { rowIndex: i, original: [`n${i}`, e.ip], enrichment: e };
  });
  const keys = rows.map((_, i) =>
    i < 6 ? -1 : rowKey(i === 14 ? 3 : i % 3, i % 2, i % 4 !== 0)
  );
  for (
    const dialect of [
      COMMA,
      { ...COMMA, delimiter: ";", newline: "\n" as const },
      { ...COMMA, delimiter: "\t", quote: "" },
    ]
  ) {
    const job = {
      ...newJob,
      id: 1,
      headers: ["name", "ip"],
      dialect,
      options: { ...newJob.options, registration: true },
    } as unknown as JobRecord;
    const output = new ChunkOutput(job);
    rows.forEach((r, i) => output.addRow(outputRowOf(dialect, r), keys[i]));
    const text = new TextDecoder().decode(output.finish().kept[0]);
    assertEquals(
      text,
      formatRows(
        rows.map((r) => outputRow(job, outputCells(job.options), r)),
        dialect,
      ),
    );
  }
});

Deno.test("a chunk whose places and organisations recur in many keys writes each line as its values say", () => {
  // Places 0 to 1999 in several keys (later groups copy the cells of the
  // first of their place and organisation, a key's later rows its group's),
  // 3000 others once, then the first ones again.
  const range = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => from + i);
  const first = range(0, 2000);
  const places = [
    ...first,
    ...first,
    ...range(2000, 5000),
    ...first,
    ...first,
    ...first,
  ];
  const rows: StoredResult[] = places.map((place, i) => {
    const e = emptyEnrichment(`198.51.100.${i % 250}`);
    Object.assign(e, {
      success: true,
      country: `Country ${place}`,
      city: `City ${place}`,
      latitude: place,
      company: `Company ${i % 7}`,
      asn: `AS${i % 7}`,
    });
    return { rowIndex: i, original: [`n${i}`, e.ip, ""], enrichment: e };
  });
  const job = { ...newJob, id: 1 } as unknown as JobRecord;
  const output = new ChunkOutput(job);
  rows.forEach((r, i) =>
    output.addRow(outputRowOf(COMMA, r), rowKey(places[i], i % 7, false))
  );
  const text = new TextDecoder().decode(
    new Uint8Array(output.finish().kept.flatMap((piece) => [...piece])),
  );
  assertEquals(
    text,
    formatRows(rows.map((r) => outputRow(job, outputCells(job.options), r))),
  );
});

Deno.test("a summary asked for while another thread adds it up waits for the kept one", () =>
  withResults(async (store, results) => {
    const job = store.createJob(newJob);
    await seedRows(store, results, job.id, [row(0, false), row(1, true)]);
    const done = store.getJob(job.id)!;
    const elsewhere = Promise.withResolvers<void>();
    results.addingSummary(job.id, elsewhere.promise);
    let answered = false;
    const asked = results.summary(done).then((summary) => {
      answered = true;
      return summary;
    });
    // What the other thread keeps is answered (two rows would count two
    // distinct addresses), not a second sum.
    const kept = { jobId: job.id, distinctAddresses: 12345 };
    await results.blobs.put(
      `results/${job.id}/summary.json`,
      ReadableStream.from([new TextEncoder().encode(JSON.stringify(kept))]),
    );
    assertEquals(answered, false);
    elsewhere.resolve();
    assertEquals((await asked).distinctAddresses, 12345);
  }));
