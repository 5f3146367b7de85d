// The fixture of the tests that need a running server and a DNS server: a
// dnsmasq on loopback with the test's records, and the real server asking
// only it (DNS_TIMEOUT_MS 500 unless the test says otherwise).
import {
  type PtrOptions,
  type PtrServer,
  startPtrServer,
  SYNTH_RECORDS,
} from "./dnsmasq.ts";
import { type RunningServer, startServer } from "./server.ts";

export interface ServerWithDns {
  server: RunningServer;
  dns: PtrServer;
  /** Stops the server, then the DNS server. */
  stop(): Promise<void>;
}

export async function startServerWithDns(
  records: PtrOptions,
  env: Record<string, string> = {},
): Promise<ServerWithDns> {
  const dns = await startPtrServer(records);
  let server: RunningServer;
  try {
    server = await startServer({
      env: { DNS_SERVERS: dns.address, DNS_TIMEOUT_MS: "500", ...env },
    });
  } catch (error) {
    await dns.stop();
    throw error;
  }
  return {
    server,
    dns,
    async stop() {
      await server.stop();
      await dns.stop();
    },
  };
}

/**
 * A server asking the usual test resolver (SYNTH_RECORDS) one question at a
 * time with a long timeout: a Domain job over many 81.2.x.y addresses runs
 * for seconds, long enough to watch, stop or kill.
 */
export function startSlowDnsServer(
  env: Record<string, string> = {},
): Promise<ServerWithDns> {
  return startServerWithDns(SYNTH_RECORDS, {
    DNS_TIMEOUT_MS: "10000",
    DNS_CONCURRENCY: "1",
    ...env,
  });
}
