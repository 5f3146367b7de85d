// `deno task bench`: the end-to-end benchmark of issue 5. Generates seeded
// CSVs, measures the baselines, runs each file through the real server over
// HTTP, loads the API, measures reverse DNS, writes bench/RESULTS.md and
// prints a one-line summary last.
//
//   deno task bench                      100,000 and 1,000,000 rows
//   deno task bench --rows=100000        chosen sizes (comma-separated)
//   --3m                                 a 3,000,000-row file after the
//                                        others (memory must stay flat)
//   deno task bench --smoke              a few thousand rows, short loads,
//                                        results to bench/out/ (tests use it)
//   --keep-downloads                     keep downloaded CSVs in bench/out/
//   --no-dns, --no-load                  skip the reverse-DNS or wrk parts
//   --dns-latency [--before=REV]         only the reverse-DNS latency
//                                        scenario (bench/dns_latency.ts)
//   --job-latency                        only a 100,000-row job with Domain
//                                        on through the server, DNS at
//                                        internet latency (job_latency.ts)
//   --silent-resolver [--lookups=200]    only single lookups through the
//                                        server with a DNS server that never
//                                        answers (silent_resolver.ts)
//   --scale [--workers=1,2,4]            only PostgreSQL mode with 1, 2 and 4
//                                        worker processes, a 1,000,000-row
//                                        file (--rows to change; scale.ts)
//   --hostile-uploads                    only issue 22's small files that
//                                        expand a thousandfold: the server's
//                                        peak memory (hostile_uploads.ts)
import { parseArgs } from "node:util";
import { loadConfig } from "../server/config.ts";
import { parseIp } from "../server/enrichment/ip_input.ts";
import { csvPass, rawLookupLoop } from "./baselines.ts";
import { benchReverseDns, dnsMix, startDnsmasq } from "./dns_bench.ts";
import { dnsLatencyMain } from "./dns_latency.ts";
import { runEndToEnd, sessionFetch, startJob, upload } from "./end_to_end.ts";
import { hostileUploadsMain } from "./hostile_uploads.ts";
import { jobLatencyMain } from "./job_latency.ts";
import { scaleMain } from "./scale.ts";
import { silentResolverMain } from "./silent_resolver.ts";
import { generateCsv, readIpCells, seededRandom } from "./generate.ts";
import { lookupLoad } from "./http_load.ts";
import {
  machineInfo,
  markdown,
  type Results,
  type SizeResult,
  summary,
  writeResults,
} from "./report.ts";
import { startServer } from "./server_process.ts";

const BENCH = new URL("./", import.meta.url).pathname;
const OUT = `${BENCH}out`;

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    rows: { type: "string" },
    smoke: { type: "boolean", default: false },
    "keep-downloads": { type: "boolean", default: false },
    "no-dns": { type: "boolean", default: false },
    "no-load": { type: "boolean", default: false },
    results: { type: "string" },
    "dns-latency": { type: "boolean", default: false },
    "job-latency": { type: "boolean", default: false },
    "silent-resolver": { type: "boolean", default: false },
    lookups: { type: "string" },
    warmup: { type: "string" },
    scale: { type: "boolean", default: false },
    "hostile-uploads": { type: "boolean", default: false },
    workers: { type: "string" },
    "3m": { type: "boolean", default: false },
    before: { type: "string" },
    modes: { type: "string" },
    distinct: { type: "string" },
  },
});
if (flags["dns-latency"]) {
  await dnsLatencyMain(Deno.args.filter((arg) => arg !== "--dns-latency"));
  Deno.exit(0);
}
if (flags["job-latency"]) {
  await jobLatencyMain(Deno.args.filter((arg) => arg !== "--job-latency"));
  Deno.exit(0);
}
if (flags["hostile-uploads"]) {
  await hostileUploadsMain();
  Deno.exit(0);
}
if (flags["silent-resolver"]) {
  await silentResolverMain(
    Deno.args.filter((arg) => arg !== "--silent-resolver"),
  );
  Deno.exit(0);
}
if (flags.scale) {
  await scaleMain(Deno.args.filter((arg) => arg !== "--scale"));
  Deno.exit(0);
}

const sizes = (flags.rows ?? (flags.smoke ? "3000" : "100000,1000000"))
  .split(",").map((n) => Number(n.replace(/_/g, "")));
if (flags["3m"] && !sizes.includes(3_000_000)) sizes.push(3_000_000);
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
  throw new Error(`--rows must be whole numbers, got "${flags.rows}"`);
}
const resultsPath = flags.results ??
  (flags.smoke ? `${OUT}/RESULTS-smoke.md` : `${BENCH}RESULTS.md`);
const loadSeconds = flags.smoke ? 1 : 10;
const dnsQueries = flags.smoke ? 400 : 20_000;
const defaults = loadConfig({});
const log = (message: string) => console.error(`[bench] ${message}`);

await Deno.mkdir(OUT, { recursive: true });
const machine = await machineInfo();
const dnsAddresses = dnsMix(dnsQueries);
const dnsmasq = await startDnsmasq(dnsAddresses, `${OUT}/dnsmasq.conf`);
log(`dnsmasq on ${dnsmasq.server}`);

const results: Results = {
  machine,
  sizes: [],
  lookupsIdle: null,
  lookupsDuringJob: null,
  dns: null,
  command: ["deno task bench", ...Deno.args].join(" "),
};

try {
  for (const rows of sizes) {
    log(`${rows} rows: generating`);
    const file = await generateCsv(rows, OUT);
    log(`${rows} rows: baselines`);
    const raw = await rawLookupLoop(file.path);
    const csv = await csvPass(file.path, `${OUT}/csv-pass-${rows}.csv`);
    await Deno.remove(`${OUT}/csv-pass-${rows}.csv`);
    log(
      `${rows} rows: raw ${Math.round(raw.rowsPerSecond)}/s, csv ${
        Math.round(csv.rowsPerSecond)
      }/s; end to end`,
    );
    const dataDir = await Deno.makeTempDir({ dir: OUT, prefix: "data-" });
    const server = await startServer(dataDir, {
      MAX_UPLOAD_MB: String(Math.ceil(file.bytes / 1024 / 1024) + 1),
      // Capacity is measured, not the per-client limit of the public API.
      RATE_LIMIT_PER_MINUTE: "0",
      RATE_LIMIT_BURST: "0",
      DNS_SERVERS: dnsmasq.server,
    });
    try {
      const e2e = await runEndToEnd(server, file, {
        keepDownload: flags["keep-downloads"]
          ? `${OUT}/download-${rows}.csv`
          : undefined,
      });
      log(
        `${rows} rows: ${Math.round(e2e.rowsPerSecond)} rows/s end to end, ` +
          `peak ${Math.round(e2e.peakRss / 1048576)} MB`,
      );
      const size: SizeResult = { rows, e2e, raw, csv };
      results.sizes.push(size);
      if (!flags["no-load"] && rows === Math.max(...sizes)) {
        const cells = await readIpCells(file.path);
        const ips = [...new Set(cells)].filter((c) => parseIp(c).ok)
          .slice(0, 2000);
        log("single lookups, idle server");
        results.lookupsIdle = await lookupLoad(
          server.url,
          ips,
          loadSeconds,
          32,
          `${OUT}/lookup.lua`,
        );
        log("single lookups while a job runs");
        const again = await upload(server, file.path);
        const job = await startJob(server, again.fileName);
        results.lookupsDuringJob = await lookupLoad(
          server.url,
          ips,
          loadSeconds,
          32,
          `${OUT}/lookup.lua`,
        );
        await sessionFetch(`${server.url}/api/jobs/${job.id}/cancel`, {
          method: "POST",
        }).then((r) => r.body?.cancel());
      }
    } finally {
      await server.stop();
      await Deno.remove(dataDir, { recursive: true });
    }
  }
  if (!flags["no-dns"]) {
    log("reverse DNS");
    results.dns = await benchReverseDns(
      dnsmasq.server,
      dnsAddresses,
      {
        timeoutMs: defaults.dns.timeoutMs,
        concurrency: defaults.dns.concurrency,
      },
      seededRandom(7),
    );
  }
} finally {
  await dnsmasq.stop();
}

await writeResults(resultsPath, markdown(results));
log(`results in ${resultsPath}`);
console.log(summary(results));
