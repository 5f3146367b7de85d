// The AIMD window's arithmetic, fed round by round (no network, no clock).
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { AdaptiveWindow, START_WINDOW } from "./dns_window.ts";

/** One round of `size` answers, `lost` of them after a resend. */
function round(window: AdaptiveWindow, rttMs: number, lost = 0): void {
  const size = window.size;
  window.saturated();
  for (let i = 0; i < size; i++) window.answered(rttMs, i < lost);
}

Deno.test("the window grows by a step per full round at a steady latency", () => {
  const window = new AdaptiveWindow(512);
  assertEquals(window.size, START_WINDOW);
  round(window, 60);
  assertEquals(window.size, START_WINDOW + 32); // 512 / 16 a round
  for (let i = 0; i < 30; i++) round(window, 60);
  assertEquals(window.size, 512); // never past the ceiling
  assertEquals(window.stats.peak, 512);
});

Deno.test("a window that was not the limit does not grow", () => {
  const window = new AdaptiveWindow(512);
  for (let i = 0; i < START_WINDOW * 3; i++) window.answered(60, false);
  assertEquals(window.size, START_WINDOW);
});

Deno.test("a round with lost answers halves the window; a stray loss does not", () => {
  const window = new AdaptiveWindow(512);
  for (let i = 0; i < 10; i++) round(window, 60);
  const before = window.size;
  round(window, 60, 1); // 1 in ~350: random loss, not congestion
  assertEquals(window.size > before, true);
  const grown = window.size;
  round(window, 60, Math.ceil(grown * 0.1));
  assertEquals(window.size, Math.floor(grown / 2));
  assertEquals(window.stats.lossDecreases, 1);
});

Deno.test("a round trip that climbs shrinks the window by a quarter", () => {
  const window = new AdaptiveWindow(256);
  for (let i = 0; i < 4; i++) round(window, 50);
  const before = window.size;
  round(window, 150); // queueing: three times the base
  assertEquals(window.size, Math.floor(before * 0.75));
  assertEquals(window.stats.latencyDecreases, 1);
});

Deno.test("a small ceiling bounds the start; the window never drops below 1", () => {
  const one = new AdaptiveWindow(1);
  assertEquals(one.size, 1);
  for (let i = 0; i < 10; i++) round(one, 50, 1);
  assertEquals(one.size, 1);
  assertEquals(new AdaptiveWindow(8).size, 8);
});

Deno.test("the first wait is three round trips, at least 250 ms, at most the timeout", () => {
  const window = new AdaptiveWindow(64);
  assertEquals(window.firstTimeoutMs(1000), 250); // no round trip known yet
  window.answered(200, false);
  assertEquals(window.firstTimeoutMs(1000), 600);
  assertEquals(window.firstTimeoutMs(400), 400);
  window.answered(10, false); // smoothed: 200 + (10 - 200) / 8
  assertEquals(window.firstTimeoutMs(1000), Math.round(3 * (200 - 190 / 8)));
});
