// Figures to Markdown (bench/RESULTS.md) and to the one-line summary.
import type { Baseline } from "./baselines.ts";
import type { DnsResult } from "./dns_bench.ts";
import type { EndToEnd } from "./end_to_end.ts";
import type { LoadResult } from "./http_load.ts";

export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  loadAverage: string;
  deno: string;
}

export interface SizeResult {
  rows: number;
  e2e: EndToEnd;
  raw: Baseline;
  csv: Baseline;
}

export interface Results {
  machine: Machine;
  sizes: SizeResult[];
  lookupsIdle: LoadResult | null;
  lookupsDuringJob: LoadResult | null;
  dns: DnsResult | null;
  command: string;
}

export async function machineInfo(): Promise<Machine> {
  const read = (path: string) => Deno.readTextFile(path).catch(() => "");
  const cpuinfo = await read("/proc/cpuinfo");
  const meminfo = await read("/proc/meminfo");
  const kb = Number(meminfo.match(/MemTotal:\s+(\d+)/)?.[1] ?? 0);
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    cpu: cpuinfo.match(/model name\s*:\s*(.+)/)?.[1]?.trim() ?? "unknown",
    cores: navigator.hardwareConcurrency,
    memoryGiB: Math.round(kb / 1024 / 1024 * 10) / 10,
    loadAverage: (await read("/proc/loadavg")).split(" ").slice(0, 3).join(
      " ",
    ),
    deno: Deno.version.deno,
  };
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const s = (ms: number) => (ms / 1000).toFixed(2);
const mb = (bytes: number) => int(bytes / 1024 / 1024);
const pct = (n: number) => `${Math.round(n * 100)}%`;
const fix = (n: number, digits = 1) => n.toFixed(digits);

interface Target {
  figure: string;
  target: string;
  value: string;
  ok: boolean;
}

export function targets(r: Results): Target[] {
  const list: Target[] = [];
  const big = r.sizes[r.sizes.length - 1];
  // Memory must stay flat: the largest run against the one before it
  // (3M against 1M with --3m).
  const before = r.sizes[Math.max(0, r.sizes.length - 2)];
  if (big) {
    list.push({
      figure: `${int(big.rows)} rows end to end`,
      target: ">= 100,000 rows/s",
      value: `${int(big.e2e.rowsPerSecond)} rows/s`,
      ok: big.e2e.rowsPerSecond >= 100_000,
    });
    const share = big.e2e.rowsPerSecond / big.raw.rowsPerSecond;
    list.push({
      figure: "end to end / raw lookup loop",
      target: ">= 60%",
      value: pct(share),
      ok: share >= 0.6,
    });
    const peak = Math.max(...r.sizes.map((x) => x.e2e.peakRss));
    const ratio = big.e2e.peakRss / before.e2e.peakRss;
    list.push({
      figure: "peak memory of server and workers",
      target: "<= 300 MB; largest run <= 1.1x the one before",
      value: `${mb(peak)} MB; ${fix(ratio, 2)}x`,
      ok: peak <= 300 * 1024 * 1024 && ratio <= 1.1,
    });
    const worst = Math.max(...big.e2e.previewMs.map((p) => p.ms));
    list.push({
      figure: `preview pages of the finished ${
        int(big.rows)
      } job (filters, deep pages)`,
      target: "each <= 300 ms",
      value: `worst ${fix(worst)} ms`,
      ok: worst <= 300,
    });
    list.push({
      figure: `GET /api/jobs/{id} p99 during the ${int(big.rows)} job`,
      target: "< 50 ms",
      value: `${fix(big.e2e.statusLatency.p99)} ms`,
      ok: big.e2e.statusLatency.p99 < 50,
    });
  }
  if (r.lookupsIdle) {
    list.push({
      figure: "single lookups (GET /api/lookup)",
      target: ">= 5,000 requests/s",
      value: `${int(r.lookupsIdle.perSecond)} requests/s`,
      ok: r.lookupsIdle.perSecond >= 5000 && r.lookupsIdle.errors === 0,
    });
  }
  if (r.dns) {
    list.push({
      figure: "reverse DNS, timeouts in the mix",
      target: ">= 5,000 PTR/s",
      value: `${int(r.dns.perSecond)} PTR/s`,
      ok: r.dns.perSecond >= 5000,
    });
  }
  return list;
}

function loadRow(name: string, l: LoadResult): string {
  return `| ${name} | ${l.tool}, ${l.connections} connections, ${l.seconds} s | ${
    int(l.perSecond)
  } | ${fix(l.p50Ms)} | ${fix(l.p99Ms)} | ${l.errors} |`;
}

export function markdown(r: Results): string {
  const m = r.machine;
  const out: string[] = [];
  out.push(
    `Run ${m.date} with \`${r.command}\` on ${m.cores} cores (${m.cpu}), ` +
      `${m.memoryGiB} GiB memory, Deno ${m.deno}; load average at start ` +
      `${m.loadAverage} (the machine is shared: compare ratios within a run).`,
    "",
    "### Targets",
    "",
    "| figure | target | measured | |",
    "|---|---|---|---|",
    ...targets(r).map((t) =>
      `| ${t.figure} | ${t.target} | ${t.value} | ${t.ok ? "met" : "MISSED"} |`
    ),
    "",
    "### End to end (upload, process, download over HTTP)",
    "",
    "Geolocation, Company and Network on, Domain off. Each size runs on a fresh " +
      "server process and data directory.",
    "",
    "| rows | file MB | upload s | process s | download s | total s | rows/s | peak RSS MB | RSS MB at start / upload / process / download | rows downloaded (consumer-ISP rows left out) |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...r.sizes.map(({ e2e: e }) =>
      `| ${int(e.rows)} | ${fix(e.bytes / 1024 / 1024)} | ${s(e.uploadMs)} | ${
        s(e.processMs)
      } | ${s(e.downloadMs)} | ${s(e.totalMs)} | ${int(e.rowsPerSecond)} | ${
        mb(e.peakRss)
      } | ${mb(e.startRss)} / ${mb(e.phaseRss.upload)} / ${
        mb(e.phaseRss.process)
      } / ${mb(e.phaseRss.download)} | ${int(e.downloadedRows)} (${
        int(e.filteredRows)
      } left out) |`
    ),
    "",
    "Preview pages of each finished job (`GET /api/jobs/{id}/preview`, 50 rows " +
      "a page), ms:",
    "",
    ...r.sizes.map(({ e2e: e }) =>
      `- ${int(e.rows)} rows: ` +
      e.previewMs.map((p) => `\`${p.query}\` ${fix(p.ms)}`).join(", ")
    ),
    "",
    "### Baselines (same run, same addresses)",
    "",
    "Raw lookup loop: every row's address parsed and looked up through the " +
      "engine (geolocation, ASN, classification), no CSV, no database, no " +
      "cache of repeats. CSV pass: the server's streaming reader and writer, " +
      "no enrichment.",
    "",
    "| rows | raw lookups/s | CSV pass rows/s | end to end / raw | end to end / CSV pass |",
    "|---|---|---|---|---|",
    ...r.sizes.map(({ rows, e2e, raw, csv }) =>
      `| ${int(rows)} | ${int(raw.rowsPerSecond)} | ${
        int(csv.rowsPerSecond)
      } | ${pct(e2e.rowsPerSecond / raw.rowsPerSecond)} | ${
        pct(e2e.rowsPerSecond / csv.rowsPerSecond)
      } |`
    ),
    "",
    "### API under load",
    "",
    "| figure | how | requests/s | p50 ms | p99 ms | errors |",
    "|---|---|---|---|---|---|",
    ...r.sizes.map(({ rows, e2e }) =>
      `| GET /api/jobs/{id} while the ${
        int(rows)
      } job runs | one client polling every 10 ms, ${e2e.statusLatency.count} requests | | ${
        fix(e2e.statusLatency.p50)
      } | ${fix(e2e.statusLatency.p99)} | 0 |`
    ),
  );
  if (r.lookupsIdle) {
    out.push(loadRow("GET /api/lookup?ip=, idle server", r.lookupsIdle));
  }
  if (r.lookupsDuringJob) {
    out.push(
      loadRow("GET /api/lookup?ip= while a job runs", r.lookupsDuringJob),
    );
  }
  out.push(
    "",
    "Single lookups include reverse DNS (the lookup API asks for every " +
      "field) against the loopback dnsmasq, which answers NXDOMAIN for them " +
      "with no SOA record; the resolver keeps such an answer for 60 s, so " +
      "after the first round over the 2,000 addresses most lookups are " +
      "answered from its cache.",
  );
  if (r.dns) {
    const d = r.dns;
    out.push(
      "",
      "### Reverse DNS",
      "",
      `${int(d.queries)} PTR lookups through the engine's resolver ` +
        `(DNS_TIMEOUT_MS=${d.timeoutMs}, DNS_CONCURRENCY=${d.concurrency}) ` +
        "against dnsmasq on loopback, each address once (no cache hits): " +
        "60% answered (names from a synth-domain rule), 35% NXDOMAIN, 5% " +
        "sent to a port that never answers.",
      "",
      "| PTR/s | seconds | answered | NXDOMAIN | timed out | failed |",
      "|---|---|---|---|---|---|",
      `| ${int(d.perSecond)} | ${s(d.ms)} | ${int(d.answered)} | ${
        int(d.notFound)
      } | ${int(d.timedOut)} | ${int(d.failed)} |`,
    );
  }
  return out.join("\n") + "\n";
}

export function summary(r: Results): string {
  const big = r.sizes[r.sizes.length - 1];
  const parts: string[] = [];
  if (big) {
    parts.push(
      `${int(big.rows)} rows in ${s(big.e2e.totalMs)} s = ${
        int(big.e2e.rowsPerSecond)
      } rows/s (${pct(big.e2e.rowsPerSecond / big.raw.rowsPerSecond)} of raw)`,
      `peak ${mb(Math.max(...r.sizes.map((x) => x.e2e.peakRss)))} MB`,
      `status p99 ${fix(big.e2e.statusLatency.p99)} ms`,
    );
  }
  if (r.lookupsIdle) parts.push(`${int(r.lookupsIdle.perSecond)} lookups/s`);
  if (r.dns) parts.push(`${int(r.dns.perSecond)} PTR/s`);
  const missed = targets(r).filter((t) => !t.ok).length;
  parts.push(missed === 0 ? "all targets met" : `${missed} target(s) missed`);
  return `bench: ${parts.join(", ")}`;
}

/** Replaces the generated part of the results file; keeps the rest. */
export function writeResults(path: string, body: string): Promise<void> {
  return writeSection(path, "bench", body);
}

/**
 * Replaces the part of the results file between `<!-- NAME:start -->` and
 * `<!-- NAME:end -->` (appended at the end when missing); keeps the rest, so
 * each scenario rewrites its own section.
 */
export async function writeSection(
  path: string,
  name: string,
  body: string,
): Promise<void> {
  const START = `<!-- ${name}:start -->`;
  const END = `<!-- ${name}:end -->`;
  let text = await Deno.readTextFile(path).catch(() =>
    `# Benchmark results\n\nWritten by \`deno task bench\`.\n`
  );
  if (!text.includes(START)) text = `${text.trimEnd()}\n\n${START}\n${END}\n`;
  const before = text.slice(0, text.indexOf(START) + START.length);
  const after = text.slice(text.indexOf(END));
  await Deno.writeTextFile(path, `${before}\n${body}${after}`);
  // Keep the file as `deno fmt --check` wants it (CI checks bench/ too).
  await new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--quiet", path],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => {});
}
