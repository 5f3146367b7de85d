// Times GET /api/jobs/{id}/summary on the real server for a job of a
// million rows. The route reads only the job's counts (result_summary), so
// the counts of a million synthetic rows are written as the result writer
// would (no result rows are needed), then the server is started on that
// data directory and asked over HTTP.
//   deno run -A bench/summary_route_bench.ts [rows=1000000]
import { join } from "node:path";
import { startServer } from "../tests/helpers/server.ts";
import { Store } from "../server/storage/store.ts";
import {
  SummaryCounter,
  type SummaryInput,
} from "../server/storage/summary_sql.ts";

const ROWS = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const TYPES = ["business", "hosting", "education", "government"];

/** Skewed picks: a few companies, countries and networks take most rows. */
function* syntheticRows(count: number): Generator<SummaryInput> {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const skewed = (n: number) => Math.floor(n * random() ** 3);
  for (let i = 0; i < count; i++) {
    const country = skewed(200);
    const asn = skewed(3000);
    const consumer = random() < 0.4;
    const failed = random() < 0.03;
    yield {
      success: !failed,
      failure: failed ? { kind: "invalid" } : null,
      ispFiltered: consumer && !failed,
      network_type: failed
        ? null
        : consumer
        ? "consumer_isp"
        : TYPES[asn % TYPES.length],
      company: failed || consumer ? null : `Company ${skewed(10_000)}`,
      asn: failed ? null : `AS${asn + 1000} Network ${asn}`,
      country: failed ? null : `Country ${country}`,
      country_code: failed ? null : `C${country}`,
      city: failed ? null : `City ${skewed(20_000)}`,
    };
  }
}

const dataDir = await Deno.makeTempDir({ prefix: "summary-route-bench-" });
const store = new Store(join(dataDir, "enrichment.db"));
const job = store.createJob({
  fileName: "bench.csv",
  originalFileName: "bench.csv",
  ipColumnName: "ip",
  ipColumnIndex: 0,
  headers: ["ip"],
  delimiter: ",",
  totalIPs: ROWS,
  options: { geolocation: true, domain: false, company: true, network: true },
});
const counter = new SummaryCounter();
const started = performance.now();
store.transaction(() => {
  counter.add(syntheticRows(ROWS));
  counter.flush(store.db, job.id, true);
});
const keys = store.db.prepare(
  "SELECT COUNT(*) AS n FROM result_summary WHERE job_id = ?",
).get(job.id) as { n: number };
// A finished job whose counts cover its rows: the route only reads them.
store.db.prepare(
  `UPDATE jobs SET status = 'completed', processed_ips = ?,
    completed_at = updated_at WHERE id = ?`,
).run(ROWS, job.id);
store.close();
console.log(
  `counted ${ROWS} rows (${keys.n} counts) in ${
    ((performance.now() - started) / 1000).toFixed(1)
  } s`,
);

const server = await startServer({ dataDir });
try {
  const times: number[] = [];
  let total = 0;
  for (let run = 0; run < 10; run++) {
    const start = performance.now();
    const response = await fetch(`${server.url}/api/jobs/${job.id}/summary`);
    const body = await response.json();
    times.push(performance.now() - start);
    total = body.rows.total;
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `GET /api/jobs/${job.id}/summary over ${total} rows: first ${
      times[0].toFixed(1)
    } ms, median ${sorted[5].toFixed(1)} ms, best ${sorted[0].toFixed(1)} ms`,
  );
} finally {
  await server.stop();
  await Deno.remove(dataDir, { recursive: true });
}
