// Single lookups with a DNS server that never answers, through the REAL
// server over HTTP: a UDP port on loopback that takes every query and
// answers none, DNS_SERVERS pointed at it, the default DNS_TIMEOUT_MS.
// After a few warm-up lookups (the timeouts that rest the server) each
// further lookup's time is measured; target: p95 <= 50 ms, none over 100.
// Also the same lookups with fields= naming no host-name field (no DNS).
//
//   deno task bench --silent-resolver [--lookups=200] [--warmup=8]
import { parseArgs } from "node:util";
import { startServer } from "./server_process.ts";
import { startSilentResolver } from "../tests/helpers/silent_resolver.ts";

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];

async function timeLookups(url: string, paths: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const path of paths) {
    const started = performance.now();
    const response = await fetch(`${url}${path}`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const describe = (times: number[]) =>
  `p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${
    percentile(times, 0.95).toFixed(1)
  } ms, max ${times[times.length - 1].toFixed(1)} ms`;

export async function silentResolverMain(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      lookups: { type: "string", default: "200" },
      warmup: { type: "string", default: "8" },
    },
  });
  const lookups = Number(values.lookups);
  const warmup = Number(values.warmup);
  const dns = startSilentResolver();
  const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-bench-" });
  const server = await startServer(dataDir, {
    DNS_SERVERS: dns.address,
    RATE_LIMIT_PER_MINUTE: "0",
  });
  try {
    // Distinct public addresses (8.8.x.y): no answer is cached.
    const path = (i: number, query = "") =>
      `/api/lookup?ip=8.8.${(i >> 8) & 255}.${i & 255}${query}`;
    const warm = await timeLookups(
      server.url,
      Array.from({ length: warmup }, (_, i) => path(i)),
    );
    const rested = await timeLookups(
      server.url,
      Array.from({ length: lookups }, (_, i) => path(warmup + i)),
    );
    const noDns = await timeLookups(
      server.url,
      Array.from(
        { length: lookups },
        (_, i) => path(warmup + lookups + i, "&fields=country,asn"),
      ),
    );
    console.log(
      `silent resolver, ${warmup} warm-up lookups: ${describe(warm)}`,
    );
    console.log(`then ${lookups} lookups: ${describe(rested)}`);
    console.log(
      `${lookups} lookups with fields=country,asn: ${describe(noDns)}`,
    );
    const p95 = percentile(rested, 0.95);
    const max = rested[rested.length - 1];
    console.log(
      `target p95 <= 50 ms and none over 100 ms: ${
        p95 <= 50 && max <= 100 ? "met" : "missed"
      }`,
    );
  } finally {
    await server.stop();
    await dns.close();
    await Deno.remove(dataDir, { recursive: true });
  }
}

if (import.meta.main) await silentResolverMain(Deno.args);
