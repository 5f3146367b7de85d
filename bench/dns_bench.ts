// Reverse DNS against dnsmasq on loopback: some addresses have a PTR record,
// the rest of in-addr.arpa is NXDOMAIN, and 9.9.0.0/16 is forwarded to a UDP
// port that this process holds open and never answers (timeouts).
import dgram from "node:dgram";
import { ReverseDns } from "../server/enrichment/reverse_dns.ts";

const DNSMASQ = "/usr/sbin/dnsmasq";

export interface Dnsmasq {
  /** "127.0.0.1:port", as DNS_SERVERS takes it. */
  server: string;
  stop(): Promise<void>;
}

export interface DnsMix {
  answered: string[];
  notFound: string[];
  silent: string[];
}

/**
 * `count` distinct addresses: 60% with a PTR record, 35% NXDOMAIN, 5% no
 * answer (distinct, so each one is a query that times out).
 */
export function dnsMix(count: number): DnsMix {
  const at = (a: number, i: number) => `${a}.${a}.${(i >> 8) & 255}.${i & 255}`;
  const answered = Array.from(
    { length: Math.round(count * 0.6) },
    (_, i) => at(5, i),
  );
  const silent = Array.from(
    { length: Math.round(count * 0.05) },
    (_, i) => `9.9.${(i >> 8) & 255}.${i & 255}`,
  );
  const notFound = Array.from(
    { length: count - answered.length - silent.length },
    (_, i) => at(6, i),
  );
  return { answered, notFound, silent };
}

async function bindUdp(): Promise<dgram.Socket> {
  const socket = dgram.createSocket("udp4");
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(0, "127.0.0.1", () => resolve());
  });
  return socket;
}

async function freePort(): Promise<number> {
  const socket = await bindUdp();
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export async function startDnsmasq(
  mix: DnsMix,
  confPath: string,
): Promise<Dnsmasq> {
  // Holds a port open and never answers: queries sent here time out.
  const blackHole = await bindUdp();
  blackHole.on("message", () => {});
  const silentPort = blackHole.address().port;
  // The answered addresses get their names from one synth-domain rule
  // ("host-5-5-0-1.bench.example.com"): dnsmasq searches ptr-record lines
  // one by one, and with 12,000 of them it answered NXDOMAIN at ~3,000/s,
  // which measured dnsmasq rather than our resolver.
  const subnets = [
    ...new Set(mix.answered.map((ip) => ip.split(".").slice(0, 2).join("."))),
  ];
  const lines = subnets.map((prefix) =>
    `synth-domain=bench.example.com,${prefix}.0.0/16,host-`
  );
  await Deno.writeTextFile(confPath, lines.join("\n") + "\n");
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const child = new Deno.Command(DNSMASQ, {
      args: [
        "--keep-in-foreground",
        `--port=${port}`,
        "--listen-address=127.0.0.1",
        "--bind-interfaces",
        "--no-resolv",
        "--no-hosts",
        "--pid-file=",
        "--user=",
        `--conf-file=${confPath}`,
        "--local=/in-addr.arpa/",
        "--local=/ip6.arpa/",
        `--server=/9.9.in-addr.arpa/127.0.0.1#${silentPort}`,
        "--dns-forward-max=100000",
        "--cache-size=10000",
        "--log-facility=/dev/null",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    // dnsmasq is ready once a query gets an answer.
    const server = `127.0.0.1:${port}`;
    const probe = new ReverseDns({
      servers: [server],
      timeoutMs: 300,
      concurrency: 1,
    });
    let ready = false;
    let exited = false;
    child.status.then(() => exited = true);
    for (let i = 0; i < 50 && !exited; i++) {
      if (await probe.lookup(mix.answered[0] ?? "5.5.0.0")) {
        ready = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (ready) {
      return {
        server,
        stop: async () => {
          try {
            child.kill("SIGTERM");
          } catch { /* gone */ }
          await child.status;
          await child.stderr.cancel().catch(() => {});
          blackHole.close();
        },
      };
    }
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    await child.status;
    const error = await new Response(child.stderr).text();
    if (attempt === 4) {
      blackHole.close();
      throw new Error(`dnsmasq did not start: ${error}`);
    }
  }
  throw new Error("unreachable");
}

export interface DnsResult {
  queries: number;
  ms: number;
  perSecond: number;
  answered: number;
  notFound: number;
  timedOut: number;
  failed: number;
  timeoutMs: number;
  concurrency: number;
}

/** PTR lookups per second through the engine's resolver, in mixed order. */
export async function benchReverseDns(
  server: string,
  mix: DnsMix,
  settings: { timeoutMs: number; concurrency: number },
  seedRandom: () => number,
): Promise<DnsResult> {
  const all = [...mix.answered, ...mix.notFound, ...mix.silent];
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(seedRandom() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  const dns = new ReverseDns({ servers: [server], ...settings });
  const started = performance.now();
  await Promise.all(all.map((ip) => dns.lookup(ip)));
  const ms = performance.now() - started;
  return {
    ...dns.stats,
    queries: all.length,
    ms,
    perSecond: all.length / (ms / 1000),
    ...settings,
  };
}
