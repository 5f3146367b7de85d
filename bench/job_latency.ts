// Reverse DNS at internet latency through the REAL server: a 100,000-row
// file with 50,000 distinct addresses (each twice, seeded order) uploaded
// over HTTP, a job with Domain on and the default DNS settings, DNS_SERVERS
// pointed at the delaying responder of dns_latency_server.ts (16-88 ms, 1%
// of answers lost, 5% of addresses silent). Also the same file with Domain
// off, for the cost of the rest of the job.
//
//   deno task bench --job-latency [--rows=100000] [--distinct=50000]
//
// Appends a section to bench/RESULTS.md (--results=PATH to change).
import { parseArgs } from "node:util";
import { loadConfig } from "../server/config.ts";
import {
  latencyAddresses,
  loadAverage,
  startResponder,
} from "./dns_latency.ts";
import { addressKind, hostFor } from "./dns_latency_zone.ts";
import { sessionFetch, startJob, upload } from "./end_to_end.ts";
import { seededRandom } from "./generate.ts";
import { startServer } from "./server_process.ts";

const BENCH = new URL("./", import.meta.url).pathname;
const OUT = `${BENCH}out`;

interface Lookups {
  answered: number;
  noName: number;
  timedOut: number;
  skipped: number;
}

interface JobRun {
  mode: string;
  jobMs: number;
  rowsPerSecond: number;
  ptrPerSecond: number | null;
  /**
   * Answerable (named) distinct addresses in the download (consumer-ISP
   * rows are left out of it), and those it gives their name.
   */
  answerable: number;
  named: number;
  lookups: Lookups | null;
  peakRss: number;
  load: string;
}

async function writeFile(rows: number, distinct: number): Promise<{
  path: string;
  addresses: string[];
}> {
  const addresses = latencyAddresses(distinct);
  const random = seededRandom(23);
  const cells: string[] = [];
  for (let i = 0; i < rows; i++) cells.push(addresses[i % distinct]);
  for (let i = cells.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [cells[i], cells[j]] = [cells[j], cells[i]];
  }
  const path = `${OUT}/job-latency-${rows}.csv`;
  const lines = ["ip_address,row_id", ...cells.map((ip, i) => `${ip},r${i}`)];
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  return { path, addresses };
}

async function runJob(
  mode: "domain off" | "defaults",
  path: string,
  addresses: string[],
  dnsServer: string,
): Promise<JobRun> {
  const dataDir = await Deno.makeTempDir({ dir: OUT, prefix: "data-" });
  const server = await startServer(dataDir, {
    MAX_UPLOAD_MB: "64",
    RATE_LIMIT_PER_MINUTE: "0",
    RATE_LIMIT_BURST: "0",
    DNS_SERVERS: dnsServer,
  });
  const loadBefore = await loadAverage();
  await server.resetPeak();
  try {
    const uploaded = await upload(server, path);
    const domain = mode === "defaults";
    const t0 = performance.now();
    let job = await startJob(server, uploaded.fileName, domain) as
      & Awaited<ReturnType<typeof startJob>>
      & { hostnameLookups?: Lookups };
    while (job.status === "pending" || job.status === "processing") {
      await new Promise((resolve) => setTimeout(resolve, 20));
      job = await (await sessionFetch(`${server.url}/api/jobs/${job.id}`))
        .json();
    }
    const jobMs = performance.now() - t0;
    if (job.status !== "completed") {
      throw new Error(`job ended ${job.status}: ${job.error}`);
    }
    const rows = job.processedIPs;
    const answerableSet = new Set(
      addresses.filter((ip) => addressKind(ip) === "named"),
    );
    let named = 0;
    let answerable = answerableSet.size;
    if (domain) {
      const text = await (await sessionFetch(
        `${server.url}/api/jobs/${job.id}/download`,
      )).text();
      const [header, ...lines] = text.trimEnd().split("\n");
      const hostColumn = header.split(",").indexOf("hostname");
      const seen = new Set<string>();
      for (const line of lines) {
        const fields = line.split(",");
        const ip = fields[0];
        if (seen.has(ip) || !answerableSet.has(ip)) continue;
        seen.add(ip);
        if (fields[hostColumn] === hostFor(ip)) named++;
      }
      answerable = seen.size;
    }
    return {
      mode,
      jobMs,
      rowsPerSecond: rows / (jobMs / 1000),
      ptrPerSecond: domain ? addresses.length / (jobMs / 1000) : null,
      answerable,
      named,
      lookups: domain ? job.hostnameLookups ?? null : null,
      peakRss: (await server.memory()).peak,
      load: `${loadBefore}-${await loadAverage()}`,
    };
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");

function markdown(
  runs: JobRun[],
  rows: number,
  distinct: number,
  command: string,
): string {
  const config = loadConfig({});
  const table = runs.map((r) =>
    `| ${r.mode} | ${(r.jobMs / 1000).toFixed(1)} s | ${
      int(r.rowsPerSecond)
    } | ${r.ptrPerSecond === null ? "-" : int(r.ptrPerSecond)} | ${
      r.lookups
        ? `${(100 * r.named / r.answerable).toFixed(1)}% (${int(r.named)} of ${
          int(r.answerable)
        })`
        : "-"
    } | ${r.lookups ? int(r.lookups.skipped) : "-"} | ${
      r.lookups
        ? `${int(r.lookups.answered)} / ${int(r.lookups.noName)} / ${
          int(r.lookups.timedOut)
        }`
        : "-"
    } | ${int(r.peakRss / 1048576)} MB | ${r.load} |`
  );
  return [
    `## A job at internet latency, through the server`,
    "",
    `Measured with \`${command}\` on ${
      new Date().toISOString().slice(0, 10)
    }:` +
    ` ${int(rows)} rows, ${int(distinct)} distinct addresses (each twice,` +
    " seeded order), uploaded over HTTP to the real server (its own" +
    " process), a job with Geolocation, Company and Network on and Domain" +
    ` as listed, DNS_CONCURRENCY ${config.dns.concurrency} and` +
    ` DNS_TIMEOUT_MS ${config.dns.timeoutMs} (the defaults), DNS_SERVERS the` +
    " delaying responder (bench/dns_latency_server.ts: 16-88 ms, 1% of" +
    " answers lost, 5% of addresses silent, 35% NXDOMAIN). Job time is from" +
    " POST /api/enrich to the job read back completed. Named is checked in" +
    " the download, over the answerable addresses in it (consumer-ISP rows" +
    " are left out of downloads); the job's own counts follow. Targets: <= 15 s, >= 5,000 distinct PTR/s, >= 99% named," +
    " 0 skipped.",
    "",
    "| Domain | job time | rows/s | distinct PTR/s | answerable named | skipped | lookups answered / no name / timed out | server peak RSS | load average |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...table,
    "",
  ].join("\n");
}

export async function jobLatencyMain(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      rows: { type: "string", default: "100000" },
      distinct: { type: "string", default: "50000" },
      results: { type: "string", default: `${BENCH}RESULTS.md` },
    },
    strict: false,
  });
  const rows = Number(values.rows);
  const distinct = Number(values.distinct);
  await Deno.mkdir(OUT, { recursive: true });
  const { path, addresses } = await writeFile(rows, distinct);
  const responder = await startResponder();
  const runs: JobRun[] = [];
  try {
    for (const mode of ["domain off", "defaults"] as const) {
      console.error(`[bench] job latency: ${mode}`);
      const run = await runJob(mode, path, addresses, responder.server);
      console.error(`[bench] ${JSON.stringify(run)}`);
      runs.push(run);
    }
  } finally {
    console.error(
      `[bench] responder ${JSON.stringify(await responder.stop())}`,
    );
  }
  const command = ["deno task bench --job-latency", ...args].join(" ").trim();
  const section = markdown(runs, rows, distinct, command);
  const resultsPath = String(values.results);
  const old = await Deno.readTextFile(resultsPath).catch(() => "");
  await Deno.writeTextFile(resultsPath, `${old.trimEnd()}\n\n${section}`);
  console.log(section);
}

if (import.meta.main) await jobLatencyMain(Deno.args);
