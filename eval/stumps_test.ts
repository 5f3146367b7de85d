import { ok } from "node:assert/strict";
import { fitStumps, stumpLogit } from "./stumps.ts";

Deno.test("boosted stumps learn a step on the feature that tells the classes", () => {
  // y is 1 inside 3 <= a < 7 (not linear in a); b is noise.
  const x: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < 300; i++) {
    const a = (i * 37 % 100) / 10, b = (i * 13 % 17) / 17;
    x.push([a, b]);
    y.push(a >= 3 && a < 7 ? 1 : 0);
  }
  const m = fitStumps(x, y, { rounds: 100, rate: 0.3, lambda: 1, minLeaf: 5 });
  ok(stumpLogit(m, [5, 0.5]) > 2, "inside");
  ok(stumpLogit(m, [1, 0.5]) < -2 && stumpLogit(m, [9, 0.5]) < -2, "outside");
  // The noise feature moves the answer far less than the telling one.
  const swing = (f: number) =>
    m.feature.reduce(
      (s, g, i) => s + (g === f ? Math.abs(m.below[i] - m.above[i]) : 0),
      0,
    );
  ok(swing(1) < swing(0) / 5, `noise ${swing(1)}, signal ${swing(0)}`);
});
