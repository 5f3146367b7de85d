// Times a job's summary (server/storage/summary_sql.ts) over synthetic rows
// in a real SQLite file, what keeping its counts costs the writer, and the
// preview's server-side filters.
//   deno run -A bench/summary_bench.ts [rows=1000000]
import { join } from "node:path";
import { Store } from "../server/storage/store.ts";
import {
  ensureSummaryTable,
  summarize,
  SummaryCounter,
} from "../server/storage/summary_sql.ts";
import {
  seedResults,
  type SeedRow,
  toSummaryInput,
} from "../server/storage/summary_seed.ts";
import {
  filteredPage,
  type PreviewFilter,
} from "../server/storage/preview_filters.ts";

const ROWS = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const TYPES = ["business", "hosting", "education", "government"];

/** Skewed picks: a few companies, countries and networks take most rows. */
function* syntheticRows(count: number): Generator<SeedRow> {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const skewed = (n: number) => Math.floor(n * random() ** 3);
  for (let i = 0; i < count; i++) {
    if (random() < 0.03) {
      yield { success: false, failure: { kind: "invalid" } };
      continue;
    }
    const country = skewed(200);
    const asn = skewed(3000);
    const consumer = random() < 0.4;
    yield {
      filtered: consumer,
      network_type: consumer ? "consumer_isp" : TYPES[asn % TYPES.length],
      company: consumer ? null : `Company ${skewed(10_000)}`,
      asn: `AS${asn + 1000} Network ${asn}`,
      country: `Country ${country}`,
      country_code: String.fromCharCode(
        65 + (country % 26),
        65 + ((country / 26) | 0),
      ),
      city: `City ${skewed(20_000)}`,
    };
  }
}

function seedTimed(
  store: Store,
  jobId: number,
  rows: number,
  { batch = 10_000, counts = true } = {},
): number {
  const start = performance.now();
  let index = 0;
  const source = syntheticRows(rows);
  // Counted as the result writer counts: in memory, flushed every
  // FLUSH_ROWS rows and at the end.
  const counter = new SummaryCounter();
  while (index < rows) {
    const chunk: SeedRow[] = [];
    for (let i = 0; i < batch && index + i < rows; i++) {
      chunk.push(source.next().value as SeedRow);
    }
    index = seedResults(store.db, jobId, chunk, index, false);
    if (counts) {
      counter.add(chunk.map(toSummaryInput));
      counter.flush(store.db, jobId, index >= rows);
    }
  }
  return performance.now() - start;
}

const dir = await Deno.makeTempDir({ prefix: "summary-bench-" });
try {
  // What the counts cost the writer: the same 100,000 rows in 100-row
  // checkpoints, as a job commits them, with and without.
  const sample = Math.min(ROWS, 100_000);
  const plain = new Store(join(dir, "plain.db"));
  ensureSummaryTable(plain.db);
  const plainMs = seedTimed(plain, 1, sample, { batch: 100, counts: false });
  plain.close();
  const counted = new Store(join(dir, "counted.db"));
  ensureSummaryTable(counted.db);
  const countedMs = seedTimed(counted, 1, sample, { batch: 100 });
  counted.close();
  console.log(
    `store ${sample} rows in 100-row checkpoints: ${plainMs.toFixed(0)} ms ` +
      `without the summary counts, ${countedMs.toFixed(0)} ms with them`,
  );

  const store = new Store(join(dir, "bench.db"));
  ensureSummaryTable(store.db);
  const seedMs = seedTimed(store, 1, ROWS);
  console.log(`seeded ${ROWS} rows in ${(seedMs / 1000).toFixed(1)} s`);
  store.close();

  // A fresh connection, as the HTTP side has: nothing cached in SQLite.
  const reader = new Store(join(dir, "bench.db"));
  const times: number[] = [];
  let total = 0;
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    total = summarize(reader.db, 1).rows.total;
    times.push(performance.now() - start);
  }
  // The preview's server-side filters on the same rows.
  const filters: [string, PreviewFilter, number][] = [
    ["text 'Company 17', page 1", { text: "Company 17" }, 1],
    ["business, page 500", { networkType: "business" }, 500],
    ["filtered, page 1", { status: "filtered" }, 1],
  ];
  for (const [name, filter, page] of filters) {
    const start = performance.now();
    const { total } = filteredPage(reader.db, 1, filter, page, 10);
    console.log(
      `preview ${name}: ${total} matches, ${
        (performance.now() - start).toFixed(0)
      } ms`,
    );
  }
  reader.close();
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `summary of ${total} rows: first ${times[0].toFixed(0)} ms, median ${
      sorted[2].toFixed(0)
    } ms, best ${sorted[0].toFixed(0)} ms`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
