import { ok } from "node:assert/strict";
import { fitLogistic, logit } from "./logistic.ts";

Deno.test("the fit separates two classes along the feature that tells them", () => {
  // y is 1 when the first feature is large; the second is noise.
  const x: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < 200; i++) {
    const a = (i % 20) / 10 - 1 + (i % 3 === 0 ? 0.3 : -0.3);
    x.push([a, ((i * 7) % 13) / 13 - 0.5]);
    y.push(a > 0 ? 1 : 0);
  }
  const m = fitLogistic(x, y, 0.1);
  ok(m.weights[0] > 5, `weight ${m.weights[0]}`);
  ok(Math.abs(m.weights[1]) < m.weights[0] / 5, `noise ${m.weights[1]}`);
  ok(logit(m, [0.8, 0]) > 2 && logit(m, [-0.8, 0]) < -2);
});

Deno.test("the penalty shrinks the weights and the bias learns the base rate", () => {
  const x = Array.from({ length: 100 }, (_, i) => [i % 2]);
  const y = x.map((_, i) => (i % 4 === 0 ? 1 : 0)); // 25% ones, unrelated
  const loose = fitLogistic(x, y, 0.01), tight = fitLogistic(x, y, 1000);
  ok(Math.abs(tight.weights[0]) < Math.abs(loose.weights[0]) + 1e-9);
  // p = 0.25 overall under a tight penalty: logit -1.1
  ok(Math.abs(tight.bias - Math.log(0.25 / 0.75)) < 0.1, `${tight.bias}`);
});
