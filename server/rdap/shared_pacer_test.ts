// Two "jobs" pacing through ports to one limiter: together they keep its
// rate, and a pause sent by one holds the other.
import { ok } from "node:assert/strict";
import { RateLimiter } from "./rate_limiter.ts";
import { PortPacer, servePacer } from "./shared_pacer.ts";

Deno.test("pacers in two jobs share one rate and one pause", async () => {
  const limiter = new RateLimiter(10, 2);
  const channels = [new MessageChannel(), new MessageChannel()];
  for (const channel of channels) servePacer(channel.port1, limiter);
  const pacers = channels.map((channel) => new PortPacer(channel.port2));
  try {
    const started = performance.now();
    const granted: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        await pacers[i % 2].take();
        granted.push(performance.now() - started);
      }),
    );
    // 2 saved up, then 10 a second: the twelfth after about a second.
    const last = Math.max(...granted);
    ok(last >= 900, `all 12 granted within ${last}ms`);
    pacers[0].pauseUntil(Date.now() + 600);
    await new Promise((r) => setTimeout(r, 20));
    const pausedAt = performance.now();
    await pacers[1].take();
    const waited = performance.now() - pausedAt;
    ok(waited >= 500, `the other job waited ${waited}ms`);
  } finally {
    for (const channel of channels) {
      channel.port1.close();
      channel.port2.close();
    }
  }
});
