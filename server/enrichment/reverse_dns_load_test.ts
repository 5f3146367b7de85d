// ReverseDns against scripted responders on loopback (real UDP sockets):
// the adaptive window, the resend, dead versus slow servers, and the
// outcome of every lookup. No assertion depends on how fast the machine is.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  type PtrResponder,
  type Reply,
  startPtrResponder,
} from "../../tests/helpers/ptr_responder.ts";
import { START_WINDOW } from "./dns_window.ts";
import {
  type DnsSettings,
  emptyOutcomes,
  type LookupOutcomes,
  ReverseDns,
} from "./reverse_dns.ts";

const ips = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}.${i >> 8}.${i & 255}`);
const total = (outcomes: LookupOutcomes) =>
  Object.values(outcomes).reduce((sum, n) => sum + n, 0);
const named = (ip: string): Reply => ({ kind: "name", name: `h-${ip}.test` });

/** A resolver of `settings` asking a responder that answers as `answer` says. */
async function withResponder(
  answer: Parameters<typeof startPtrResponder>[0],
  settings: Omit<DnsSettings, "servers">,
  check: (dns: ReverseDns, server: PtrResponder) => Promise<void>,
): Promise<void> {
  const server = startPtrResponder(answer);
  const dns = new ReverseDns({ servers: [server.address], ...settings });
  try {
    await check(dns, server);
  } finally {
    dns.close();
    await server.stop();
  }
}

Deno.test("the window grows while answers come and halves when they are lost", async () => {
  // 10.0.x.x answers after 5 ms; 10.1.x.x loses each first answer.
  await withResponder(
    (ip, times) =>
      ip.startsWith("10.1.")
        ? (times === 1 ? { kind: "none" } : named(ip))
        : { ...named(ip), delayMs: 5 },
    { timeoutMs: 2000, concurrency: 256, cacheEntries: 0 },
    async (dns, server) => {
      const steady = ips("10.0", 3000);
      await Promise.all(steady.map((ip) => dns.lookup(ip)));
      const grown = dns.window.peak;
      assertEquals(grown > START_WINDOW, true, JSON.stringify(dns.window));
      const { losses, lossDecreases } = dns.window;
      const lossy = ips("10.1", 200);
      // In four batches: a round ends after a window's answers or a few
      // round trips, and one batch's answers can all come within one.
      const hosts: (string | null)[] = [];
      for (let at = 0; at < lossy.length; at += 50) {
        const batch = lossy.slice(at, at + 50);
        hosts.push(...await Promise.all(batch.map((ip) => dns.lookup(ip))));
      }
      // The resend after the short first wait got every name back...
      assertEquals(hosts, lossy.map((ip) => `h-${ip}.test`));
      assertEquals(lossy.every((ip) => server.asked(ip) === 2), true);
      // ...and the losses halved the window.
      assertEquals(
        dns.window.lossDecreases > lossDecreases,
        true,
        JSON.stringify(dns.window),
      );
      assertEquals(dns.window.size < grown, true, JSON.stringify(dns.window));
      assertEquals(dns.window.losses - losses, 200);
    },
  );
});

Deno.test("a slow server that loses answers under load is not rested", async () => {
  // Every third address never gets an answer (lost both times); the rest
  // answer after 20 ms. 60 silent ones go first: 60 timeouts in a row.
  const silent = ips("10.2", 60);
  const answered = ips("10.3", 300);
  const mixed = answered.flatMap((ip, i) =>
    i % 2 ? [ip] : [ip, `10.4.${i >> 8}.${i & 255}`]
  );
  await withResponder(
    (ip) =>
      ip.startsWith("10.3.")
        ? { kind: "name", name: `h-${ip}.test`, delayMs: 20 }
        : { kind: "none" },
    { timeoutMs: 300, concurrency: 32, cacheEntries: 0 },
    async (dns) => {
      await Promise.all([...silent, ...mixed].map((ip) => dns.lookup(ip)));
      const outcomes = dns.outcomes();
      assertEquals(outcomes.skipped, 0, JSON.stringify(outcomes));
      assertEquals(outcomes.answered, 300);
      assertEquals(outcomes.timed_out, 60 + 150);
    },
  );
});

Deno.test("a dead server is rested and the lookups it skips are counted", async () => {
  let dead = false;
  const server = startPtrResponder((ip) => dead ? { kind: "none" } : named(ip));
  const dns = new ReverseDns({
    servers: [server.address],
    timeoutMs: 100,
    concurrency: 8,
    cacheEntries: 0,
  });
  const job = emptyOutcomes();
  try {
    const alive = ips("10.5", 20);
    await Promise.all(alive.map((ip) => dns.lookup(ip, job)));
    dead = true;
    const later = ips("10.6", 300);
    const hosts = await Promise.all(later.map((ip) => dns.lookup(ip, job)));
    assertEquals(hosts.every((host) => host === null), true);
    assertEquals(job.answered, 20);
    assertEquals(job.timed_out >= 20, true, JSON.stringify(job));
    assertEquals(job.skipped > 0, true, JSON.stringify(job));
    assertEquals(job.timed_out + job.skipped, 300);
    // A skipped lookup was never sent; every one sent timed out. The one
    // other address asked is the probe's (127.0.0.1), sent on resting.
    assertEquals(server.addressesAsked(), 20 + job.timed_out + 1);
    assertEquals(server.asked("127.0.0.1") > 0, true);
    assertEquals(dns.outcomes(), job);
  } finally {
    dns.close();
    await server.stop();
  }
});

Deno.test("a rested server that answers its probe is asked again at once", async () => {
  // 10.9.x.x never answers (a silent zone) and nothing else is asked
  // meanwhile, so the server looks dead and is rested; the probe's answer
  // (127.0.0.1 has a name) ends the rest before the next lookup.
  await withResponder(
    (ip) => ip.startsWith("10.9.") ? { kind: "none" } : named(ip),
    { timeoutMs: 60, concurrency: 1, cacheEntries: 0 },
    async (dns, server) => {
      for (const ip of ips("10.9", 20)) await dns.lookup(ip);
      const { timed_out, skipped } = dns.outcomes();
      assertEquals(timed_out >= 5 && timed_out + skipped === 20, true);
      for (let i = 0; i < 100 && server.asked("127.0.0.1") === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      assertEquals(await dns.resolve("10.5.0.1"), {
        host: "h-10.5.0.1.test",
        outcome: "answered",
      });
      assertEquals(dns.outcomes().skipped, skipped);
    },
  );
});

Deno.test("every lookup ends in exactly one outcome, shared and cached ones too", async () => {
  const server = startPtrResponder((ip) => {
    if (ip.startsWith("10.7.")) return named(ip);
    if (ip.startsWith("10.8.")) return { kind: "nxdomain" };
    return { kind: "none" };
  });
  const dns = new ReverseDns({
    servers: [server.address],
    timeoutMs: 100,
    concurrency: 16,
  });
  const job = emptyOutcomes();
  try {
    const [names, none, silent] = [
      ips("10.7", 30),
      ips("10.8", 20),
      ips("10.9", 10),
    ];
    const all = [...names, ...none, ...silent];
    // Each address twice at once (the second shares the first's query),
    // then the answered ones again (from the cache).
    await Promise.all([...all, ...all].map((ip) => dns.lookup(ip, job)));
    await Promise.all([...names, ...none].map((ip) => dns.lookup(ip, job)));
    assertEquals(job, {
      answered: 90,
      no_name: 60,
      timed_out: 20,
      skipped: 0,
    });
    assertEquals(total(job), 2 * all.length + names.length + none.length);
    assertEquals(dns.outcomes(), job);
    assertEquals(dns.stats.queries, all.length);
    const result = await dns.resolve(names[0]);
    assertEquals(result, { host: `h-${names[0]}.test`, outcome: "answered" });
    assertEquals(total(dns.outcomes()), total(job) + 1);
  } finally {
    dns.close();
    await server.stop();
  }
});

Deno.test("queries start in bursts of at most 64, however large the window", async () => {
  await withResponder(
    (ip) => named(ip),
    { timeoutMs: 2000, concurrency: 1024, cacheEntries: 0 },
    async (dns) => {
      // Grow the window past one burst first.
      for (let round = 0; round < 20 && dns.window.size <= 64; round++) {
        await Promise.all(
          ips(`10.${20 + round}`, 500).map((ip) => dns.lookup(ip)),
        );
      }
      assertEquals(dns.window.size > 64, true, JSON.stringify(dns.window));
      await new Promise((resolve) => setTimeout(resolve, 20)); // pacer reset
      const before = dns.stats.queries;
      const many = ips("10.11", 1000);
      const pending = Promise.all(many.map((ip) => dns.lookup(ip)));
      // Started at once (synchronously) is one burst, not the whole window.
      assertEquals(dns.stats.queries - before, 64);
      const hosts = await pending;
      assertEquals(hosts, many.map((ip) => `h-${ip}.test`));
    },
  );
});
