// A real DNS server on loopback (Debian's dnsmasq) with PTR records for test
// addresses, NXDOMAIN for everything else under in-addr.arpa/ip6.arpa, and a
// zone forwarded to a UDP port that never answers (queries time out).

export interface PtrServer {
  /** "127.0.0.1:PORT", the form DNS_SERVERS takes. */
  address: string;
  port: number;
  /** How many queries dnsmasq has logged for a name so far. */
  queriesFor(name: string): number;
  stop(): Promise<void>;
}

export interface PtrOptions {
  /** IP -> host name. */
  records: Record<string, string>;
  /** Reverse zones that never answer, e.g. "9.9.9.in-addr.arpa". */
  silentZones?: string[];
  /** PTR names made up for whole ranges: "81.2.0.0/16" -> 81-2-3-4.DOMAIN. */
  synth?: { domain: string; range: string }[];
  /** Forward records, "name,address[,address]" (A and AAAA). */
  hostRecords?: string[];
  /** Forward zones answered only from hostRecords (NXDOMAIN otherwise). */
  localZones?: string[];
}

const DNSMASQ = ["/usr/sbin/dnsmasq", "/usr/bin/dnsmasq"].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

function freeUdpPort(): Deno.DatagramConn {
  return Deno.listenDatagram({
    transport: "udp",
    hostname: "127.0.0.1",
    port: 0,
  });
}

export function reverseV4(ip: string): string {
  return `${ip.split(".").reverse().join(".")}.in-addr.arpa`;
}

/**
 * A loopback port free for both UDP and TCP (dnsmasq listens on both); the
 * probes close before dnsmasq binds, so another process may still take it.
 */
function probePort(): number {
  for (;;) {
    const probe = freeUdpPort();
    const port = (probe.addr as Deno.NetAddr).port;
    try {
      Deno.listen({ hostname: "127.0.0.1", port }).close();
      return port;
    } catch {
      // In use over TCP: try another.
    } finally {
      probe.close();
    }
  }
}

export async function startPtrServer(options: PtrOptions): Promise<PtrServer> {
  if (!DNSMASQ) throw new Error("dnsmasq is not installed: run tests/setup.sh");
  // Holds a port open and never replies: the upstream of the silent zones.
  const blackhole = freeUdpPort();
  const blackholePort = (blackhole.addr as Deno.NetAddr).port;
  const ready = `${crypto.randomUUID()}.ready.test`;
  const args = (port: number) => [
    "--keep-in-foreground",
    "--no-daemon",
    `--port=${port}`,
    "--listen-address=127.0.0.1",
    "--bind-interfaces",
    "--no-resolv",
    "--no-hosts",
    "--no-poll",
    "--cache-size=0",
    "--user=root",
    "--pid-file=",
    "--log-facility=-",
    "--log-queries",
    "--local=/in-addr.arpa/",
    "--local=/ip6.arpa/",
    ...(options.silentZones ?? []).map((zone) =>
      `--server=/${zone}/127.0.0.1#${blackholePort}`
    ),
    ...(options.synth ?? []).map(({ domain, range }) =>
      `--synth-domain=${domain},${range}`
    ),
    ...(options.localZones ?? []).map((zone) => `--local=/${zone}/`),
    `--host-record=${ready},127.0.0.1`,
    ...(options.hostRecords ?? []).map((record) => `--host-record=${record}`),
    ...Object.entries(options.records).map(([ip, name]) =>
      `--ptr-record=${reverseV4(ip)},${name}`
    ),
  ];
  // Ready when it answers a name only this instance holds: another test's
  // dnsmasq that took the port between the probe and the bind does not know
  // it. A port taken is tried again with another.
  let started: { child: Deno.ChildProcess; port: number } | null = null;
  for (let attempt = 1; !started; attempt++) {
    const port = probePort();
    const child = new Deno.Command(DNSMASQ, {
      args: args(port),
      stdout: "null",
      stderr: "piped",
      stdin: "null",
    }).spawn();
    let exited = false;
    child.status.then(() => exited = true);
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline) {
      try {
        const answer = await Deno.resolveDns(ready, "A", {
          nameServer: { ipAddr: "127.0.0.1", port },
          signal: AbortSignal.timeout(200),
        });
        if (answer.includes("127.0.0.1")) {
          started = { child, port };
          break;
        }
      } catch {
        // Not listening yet, or another server holds the port.
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (started) break;
    if (!exited) child.kill();
    const { stderr } = await child.output().catch(() => ({
      stderr: new Uint8Array(),
    }));
    const text = new TextDecoder().decode(stderr);
    if (attempt < 5 && /in use/i.test(text)) continue;
    blackhole.close();
    throw new Error(`dnsmasq did not start: ${text}`);
  }
  const { child, port } = started;
  // dnsmasq logs each query to stderr: "query[PTR] 8.8.8.8.in-addr.arpa from ..."
  const log: string[] = [];
  const drained = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({
      write: (chunk) => void log.push(...chunk.split("\n")),
    }),
  );
  let stopped = false;
  return {
    address: `127.0.0.1:${port}`,
    port,
    queriesFor: (name) =>
      log.filter((line) => line.includes(`query[PTR] ${name} `)).length,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await drained.catch(() => {});
      blackhole.close();
    },
  };
}

/** The usual test records: dns.google for 8.8.8.8, a made-up name for
 * every address in 81.2.0.0/16 (81-2-3-4.synth.test), NXDOMAIN elsewhere. */
export const SYNTH_RECORDS: PtrOptions = {
  records: { "8.8.8.8": "dns.google" },
  synth: [{ domain: "synth.test", range: "81.2.0.0/16" }],
};

/**
 * Host names resolved forward: mail.example.test to a public IPv4 address,
 * v6only.example.test to an IPv6 one, office.example.test to a private
 * one; any other name under .test has no address.
 */
export const HOST_RECORDS: PtrOptions = {
  records: {},
  localZones: ["test"],
  hostRecords: [
    "mail.example.test,81.2.69.142",
    "v6only.example.test,2001:4860:4860::8888",
    "office.example.test,10.1.2.3",
  ],
};

/** SYNTH_RECORDS, and a zone that never answers: 9.9.9.0/24. */
export const SILENT_ZONE_RECORDS: PtrOptions = {
  ...SYNTH_RECORDS,
  silentZones: ["9.9.9.in-addr.arpa"],
};

/** The usual test resolver (SYNTH_RECORDS). */
export function startSynthPtrServer(): Promise<PtrServer> {
  return startPtrServer(SYNTH_RECORDS);
}
