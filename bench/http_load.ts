// Single-lookup requests per second (GET /api/lookup?ip=) with wrk on
// loopback, rotating over a list of addresses. Without wrk, a fetch loop in
// this process stands in (and says so).
import { percentile } from "./end_to_end.ts";

export interface LoadResult {
  tool: string;
  seconds: number;
  connections: number;
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

function hasWrk(): boolean {
  try {
    return new Deno.Command("wrk", { args: ["--version"], stdout: "null" })
      .outputSync().code !== undefined;
  } catch {
    return false;
  }
}

function ms(value: string, unit: string): number {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : n;
}

async function wrk(
  url: string,
  ips: string[],
  seconds: number,
  connections: number,
  scriptPath: string,
): Promise<LoadResult> {
  await Deno.writeTextFile(
    scriptPath,
    `local ips = {${ips.map((ip) => `"${ip}"`).join(",")}}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/api/lookup?ip=" .. ips[(i % #ips) + 1])
end
`,
  );
  const { stdout, code } = await new Deno.Command("wrk", {
    args: [
      "-t1",
      `-c${connections}`,
      `-d${seconds}s`,
      "--timeout",
      "5s",
      "--latency",
      "-s",
      scriptPath,
      url,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const text = new TextDecoder().decode(stdout);
  if (code !== 0) throw new Error(`wrk failed:\n${text}`);
  const find = (re: RegExp) => text.match(re);
  const latency = (p: string) => {
    const m = find(new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, "m"));
    return m ? ms(m[1], m[2]) : NaN;
  };
  const requests = Number(find(/(\d+) requests in/)?.[1] ?? 0);
  const non2xx = Number(find(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  const socketErrors = find(
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/,
  );
  const errors = non2xx +
    (socketErrors
      ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0)
      : 0);
  return {
    tool: "wrk",
    seconds,
    connections,
    requests,
    perSecond: Number(find(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0),
    p50Ms: latency("50"),
    p99Ms: latency("99"),
    errors,
  };
}

async function fetchLoop(
  url: string,
  ips: string[],
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const ip = ips[next++ % ips.length];
        const sent = performance.now();
        const response = await fetch(`${url}/api/lookup?ip=${ip}`);
        await response.arrayBuffer();
        if (!response.ok) errors++;
        latencies.push(performance.now() - sent);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    tool: "fetch loop (wrk not installed)",
    seconds,
    connections,
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    errors,
  };
}

export function lookupLoad(
  url: string,
  ips: string[],
  seconds: number,
  connections: number,
  scriptPath: string,
): Promise<LoadResult> {
  return hasWrk()
    ? wrk(url, ips, seconds, connections, scriptPath)
    : fetchLoop(url, ips, seconds, connections);
}
