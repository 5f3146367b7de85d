// Gradient-boosted stumps (trees of depth one) under the logistic loss: an
// additive model, each feature's part a step function of that feature
// alone, so the answer can name the feature that weighed most. Newton steps
// per leaf; candidate cuts at the features' quantiles.

export interface Stumps {
  bias: number;
  feature: number[];
  cut: number[];
  /** Added to the logit when x[feature] < cut, and otherwise. */
  below: number[];
  above: number[];
}

export interface StumpOptions {
  rounds: number;
  rate: number;
  /** Leaf penalty (larger: smaller steps on thin leaves). */
  lambda: number;
  /** Fewest examples on either side of a cut. */
  minLeaf: number;
}

export const STUMP_DEFAULTS: StumpOptions = {
  rounds: 300,
  rate: 0.1,
  lambda: 2,
  minLeaf: 8,
};

export function stumpLogit(m: Stumps, x: number[]): number {
  let t = m.bias;
  for (let i = 0; i < m.feature.length; i++) {
    t += x[m.feature[i]] < m.cut[i] ? m.below[i] : m.above[i];
  }
  return t;
}

function cutsOf(values: number[]): number[] {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const cuts = new Set<number>();
  const n = Math.min(32, sorted.length - 1);
  for (let q = 1; q <= n; q++) {
    const i = Math.floor((q * sorted.length) / (n + 1));
    if (i > 0) cuts.add((sorted[i - 1] + sorted[i]) / 2);
  }
  return [...cuts];
}

export function fitStumps(
  x: number[][],
  y: number[],
  o: StumpOptions = STUMP_DEFAULTS,
): Stumps {
  const n = x.length, d = x[0]?.length ?? 0;
  const rate = y.reduce((s, v) => s + v, 0) / n;
  const bias = Math.log(rate / (1 - rate));
  const m: Stumps = { bias, feature: [], cut: [], below: [], above: [] };
  const t = new Array(n).fill(bias);
  const cuts = Array.from({ length: d }, (_, j) => cutsOf(x.map((r) => r[j])));
  for (let round = 0; round < o.rounds; round++) {
    const g = new Array(n), h = new Array(n);
    let G = 0, H = 0;
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-t[i]));
      g[i] = p - y[i];
      h[i] = Math.max(p * (1 - p), 1e-6);
      G += g[i];
      H += h[i];
    }
    let best = { gain: 0, j: -1, cut: 0, below: 0, above: 0 };
    for (let j = 0; j < d; j++) {
      for (const cut of cuts[j]) {
        let gl = 0, hl = 0, nl = 0;
        for (let i = 0; i < n; i++) {
          if (x[i][j] < cut) {
            gl += g[i];
            hl += h[i];
            nl++;
          }
        }
        if (nl < o.minLeaf || n - nl < o.minLeaf) continue;
        const gr = G - gl, hr = H - hl;
        const gain = gl * gl / (hl + o.lambda) + gr * gr / (hr + o.lambda) -
          G * G / (H + o.lambda);
        if (gain > best.gain) {
          best = {
            gain,
            j,
            cut,
            below: -o.rate * gl / (hl + o.lambda),
            above: -o.rate * gr / (hr + o.lambda),
          };
        }
      }
    }
    if (best.j < 0) break;
    m.feature.push(best.j);
    m.cut.push(best.cut);
    m.below.push(best.below);
    m.above.push(best.above);
    for (let i = 0; i < n; i++) {
      t[i] += x[i][best.j] < best.cut ? best.below : best.above;
    }
  }
  return m;
}
