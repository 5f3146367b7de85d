// Slow jobs for the browser tests: a DNS server on loopback that answers
// each reverse lookup after a delay, one query at a time, and the server
// settings that make every lookup go to it.

import dgram from "node:dgram";
import type { Browser } from "playwright-core";
import type { RunningServer } from "../helpers/server.ts";
import { withServerAndBrowser } from "./browser.ts";

/**
 * A DNS server on loopback that answers every query with NXDOMAIN after
 * `delayMs`: each reverse lookup is slow but answered, so the server keeps
 * asking it (a resolver that never answers would be rested).
 */
export async function slowResolver(
  delayMs = 100,
): Promise<{ address: string; close(): void }> {
  const socket = dgram.createSocket("udp4");
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closed = false;
  socket.on("message", (query: Uint8Array, peer) => {
    if (query.length < 12) return;
    // The question ends after its name's zero byte, type and class.
    let end = 12;
    while (end < query.length && query[end] !== 0) end += query[end] + 1;
    end += 5;
    if (end > query.length) return;
    const answer = new Uint8Array(query.subarray(0, end));
    answer[2] = 0x80 | (query[2] & 0x01); // response, recursion desired as asked
    answer[3] = 0x83; // recursion available, NXDOMAIN
    answer.fill(0, 6, 12); // no answer, authority or additional records
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) socket.send(answer, peer.port, peer.address);
    }, delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    close: () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      socket.close();
    },
  };
}

/** n distinct public IPv4 addresses (8.8.x.y): one DNS timeout each. */
export function distinctIps(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `8.8.${i >> 8}.${(i & 255) + 1}`);
}

export function slowEnv(dns: string, extra: Record<string, string> = {}) {
  return {
    DNS_SERVERS: dns,
    DNS_TIMEOUT_MS: "1000",
    DNS_CONCURRENCY: "1",
    PROGRESS_ROWS: "5",
    ...extra,
  };
}

/** A test (`name`) run with a slow resolver, a server using it, and a browser. */
export function slowBrowserTest(
  name: string,
  body: (server: RunningServer, browser: Browser) => Promise<void>,
  env: Record<string, string> = {},
): void {
  Deno.test(
    { name, sanitizeOps: false, sanitizeResources: false },
    async () => {
      const dns = await slowResolver();
      try {
        await withServerAndBrowser(slowEnv(dns.address, env), body);
      } finally {
        dns.close();
      }
    },
  );
}
