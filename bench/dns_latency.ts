// Reverse DNS at internet latency: a 100,000-row job's lookups (50,000
// distinct addresses, each looked up once, as a job does) through the real
// ReverseDns class, against the delaying responder of
// dns_latency_server.ts in a process of its own. Each mode is run with a
// fresh resolver; "before" is ReverseDns as it was at a git revision,
// extracted to bench/out/ and loaded in the same run.
//
//   deno run -A bench/dns_latency.ts [--before=REV] [--modes=after:64,...]
//   deno task bench --dns-latency [--before=REV]   (the same, from bench.ts)
//
// Appends a section to bench/RESULTS.md (--results=PATH to change).
// (Just over 300 lines: one scenario, its runs and its report.)
import { parseArgs } from "node:util";
import { ReverseDns } from "../server/enrichment/reverse_dns.ts";
import { addressKind } from "./dns_latency_zone.ts";
import { seededRandom } from "./generate.ts";

const BENCH = new URL("./", import.meta.url).pathname;
const ROOT = new URL("../", import.meta.url).pathname;

export interface LatencyOptions {
  rows: number;
  distinct: number;
  /** "before:64", "after:64", "after:512": code and DNS_CONCURRENCY. */
  modes: string[];
  /** Git revision whose ReverseDns is "before". */
  before?: string;
  timeoutMs: number;
  /** Lookups a job would have started and not seen finish, at most. */
  rowWindow: number;
}

export interface LatencyResult {
  mode: string;
  concurrency: number;
  ms: number;
  rowsPerSecond: number;
  ptrPerSecond: number;
  answerable: number;
  named: number;
  skipped: number;
  timedOut: number;
  queries: number;
  /** "peak / end (halved n for loss, m for latency)", "-" before. */
  window: string;
  responder: Record<string, number>;
  /** The machine's 1-minute load average at the start and the end. */
  load: string;
}

type Resolver = {
  lookup(ip: string): Promise<string | null>;
  close(): void;
  stats: { queries: number; skipped: number; timedOut: number };
  window?: {
    peak: number;
    size: number;
    lossDecreases: number;
    latencyDecreases: number;
  };
};
type ResolverClass = new (settings: {
  servers: string[];
  timeoutMs: number;
  concurrency: number;
}) => Resolver;

/** `distinct` random public-looking IPv4 addresses, seeded. */
export function latencyAddresses(distinct: number): string[] {
  const random = seededRandom(11);
  const seen = new Set<string>();
  while (seen.size < distinct) {
    const a = 11 + Math.floor(random() * 212);
    if (a === 127) continue;
    const rest = Math.floor(random() * 0xffffff);
    seen.add(`${a}.${rest >> 16}.${(rest >> 8) & 255}.${rest & 255}`);
  }
  return [...seen];
}

/** ReverseDns of git revision `rev`, written under bench/out/. */
async function resolverAt(rev: string): Promise<ResolverClass> {
  const dir = `${BENCH}out/before-${rev}/server/enrichment`;
  await Deno.mkdir(dir, { recursive: true });
  const files = ["reverse_dns.ts", "dns_client.ts", "ttl_cache.ts"];
  for (const file of files) {
    const out = await new Deno.Command("git", {
      args: ["show", `${rev}:server/enrichment/${file}`],
      cwd: ROOT,
    }).output();
    if (!out.success) throw new Error(`git show ${rev}:${file} failed`);
    await Deno.writeFile(`${dir}/${file}`, out.stdout);
  }
  const module = await import(`file://${dir}/reverse_dns.ts`);
  return module.ReverseDns as ResolverClass;
}

export async function startResponder() {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${BENCH}dns_latency_server.ts`],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream())
    .getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await lines.read();
    if (done) throw new Error("the latency responder did not start");
    text += value;
  }
  const port = Number(text.match(/port (\d+)/)![1]);
  return {
    server: `127.0.0.1:${port}`,
    /** Stops it and returns its counters. */
    async stop(): Promise<Record<string, number>> {
      await child.stdin.close();
      while (!text.includes("stats")) {
        const { value, done } = await lines.read();
        if (done) break;
        text += value;
      }
      await child.status;
      const stats = text.match(/stats (\{.*\})/);
      return stats ? JSON.parse(stats[1]) : {};
    },
  };
}

export async function loadAverage(): Promise<string> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "? ");
  return text.split(" ")[0];
}

/** Every address looked up once, at most `rowWindow` unfinished at a time. */
async function runMode(
  Resolver: ResolverClass,
  mode: string,
  concurrency: number,
  addresses: string[],
  options: LatencyOptions,
): Promise<LatencyResult> {
  const loadBefore = await loadAverage();
  const responder = await startResponder();
  const dns = new Resolver({
    servers: [responder.server],
    timeoutMs: options.timeoutMs,
    concurrency,
  });
  let named = 0;
  let answerable = 0;
  let open = 0;
  let freed: (() => void) | null = null;
  const started = performance.now();
  const all: Promise<void>[] = [];
  for (const ip of addresses) {
    const kind = addressKind(ip);
    if (kind === "named") answerable++;
    while (open >= options.rowWindow) {
      await new Promise<void>((resolve) => freed = resolve);
    }
    open++;
    all.push(
      dns.lookup(ip).then((host) => {
        if (host && kind === "named") named++;
        open--;
        freed?.();
        freed = null;
      }),
    );
  }
  await Promise.all(all);
  const ms = performance.now() - started;
  dns.close();
  const responderStats = await responder.stop();
  return {
    mode,
    concurrency,
    ms,
    rowsPerSecond: options.rows / (ms / 1000),
    ptrPerSecond: addresses.length / (ms / 1000),
    answerable,
    named,
    skipped: dns.stats.skipped,
    timedOut: dns.stats.timedOut,
    queries: dns.stats.queries,
    window: dns.window
      ? `${dns.window.peak} / ${dns.window.size} (${dns.window.lossDecreases}, ${dns.window.latencyDecreases})`
      : "-",
    responder: responderStats,
    load: `${loadBefore}-${await loadAverage()}`,
  };
}

export async function runDnsLatency(
  options: LatencyOptions,
  log: (message: string) => void = (m) => console.error(`[dns-latency] ${m}`),
): Promise<LatencyResult[]> {
  const addresses = latencyAddresses(options.distinct);
  const results: LatencyResult[] = [];
  for (const spec of options.modes) {
    const [code, limit] = spec.split(":");
    const concurrency = Number(limit);
    if (code === "before" && !options.before) {
      log(`${spec}: skipped, no --before revision`);
      continue;
    }
    const Resolver = code === "before"
      ? await resolverAt(options.before!)
      : ReverseDns as unknown as ResolverClass;
    log(`${spec}: ${addresses.length} distinct addresses`);
    const result = await runMode(
      Resolver,
      spec,
      concurrency,
      addresses,
      options,
    );
    log(
      `${spec}: ${Math.round(result.ptrPerSecond)} PTR/s, ` +
        `${(result.ms / 1000).toFixed(1)} s, ` +
        `named ${pct(result.named / result.answerable)}, ` +
        `skipped ${result.skipped}`,
    );
    results.push(result);
  }
  return results;
}

function pct(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");

export function latencyMarkdown(
  results: LatencyResult[],
  options: LatencyOptions,
  command: string,
): string {
  const rows = results.map((r) =>
    `| ${r.mode} | ${int(r.concurrency)} | ${(r.ms / 1000).toFixed(1)} s | ` +
    `${int(r.ptrPerSecond)} | ${int(r.rowsPerSecond)} | ` +
    `${pct(r.named / r.answerable)} (${int(r.named)} of ${
      int(r.answerable)
    }) | ${int(r.skipped)} | ${int(r.timedOut)} | ${int(r.queries)} | ` +
    `${r.window} | ${int(r.responder.dropped ?? 0)} | ${r.load} |`
  );
  return [
    `## Reverse DNS at internet latency (${new Date().toISOString()})`,
    "",
    `\`${command}\`: ${int(options.rows)} rows with ${
      int(options.distinct)
    } distinct addresses, each looked up once (as a job does), at most ${
      int(options.rowWindow)
    } unfinished at a time, DNS_TIMEOUT_MS ${options.timeoutMs}. The ` +
    "responder (bench/dns_latency_server.ts, its own process on loopback) " +
    "answers after 16-88 ms (mean 60), drops 1% of answers, never answers " +
    "5% of addresses and gives NXDOMAIN for 35%. `before` is ReverseDns at " +
    `${options.before ?? "-"}; \`after\` is this branch's. Rows/s is rows ` +
    "over the lookup time alone (the job's other work is not in it).",
    "",
    "| mode:DNS_CONCURRENCY | ceiling | elapsed | distinct PTR/s | rows/s " +
    "| answerable named | skipped | timed out | queries sent " +
    "| window peak / end (halvings for loss, latency) " +
    "| answers dropped by the responder | load average |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

export async function dnsLatencyMain(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: false,
    options: {
      before: { type: "string" },
      modes: { type: "string", default: "before:64,after:64,after:512" },
      rows: { type: "string", default: "100000" },
      distinct: { type: "string", default: "50000" },
      results: { type: "string", default: `${BENCH}RESULTS.md` },
    },
  });
  const options: LatencyOptions = {
    rows: Number(values.rows),
    distinct: Number(values.distinct),
    modes: String(values.modes).split(","),
    before: values.before as string | undefined,
    timeoutMs: 1000,
    rowWindow: 20_000,
  };
  const results = await runDnsLatency(options);
  const command = ["deno run -A bench/dns_latency.ts", ...args].join(" ");
  const section = latencyMarkdown(results, options, command);
  const path = String(values.results);
  const old = await Deno.readTextFile(path).catch(() => "");
  await Deno.writeTextFile(path, `${old.trimEnd()}\n\n${section}`);
  console.log(section);
}

if (import.meta.main) await dnsLatencyMain(Deno.args);
