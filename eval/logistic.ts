// Logistic regression fitted by Newton's method with an L2 penalty (the
// bias is not penalised): a few dozen features and a few thousand rows
// converge in a handful of steps.

export interface Logistic {
  weights: number[];
  bias: number;
}

const sigmoid = (t: number) => 1 / (1 + Math.exp(-t));

export function logit(m: Logistic, x: number[]): number {
  let t = m.bias;
  for (let i = 0; i < x.length; i++) t += m.weights[i] * x[i];
  return t;
}

/** Solves a x = b in place (Gaussian elimination, partial pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) {
      if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) pivot = r;
    }
    [a[c], a[pivot]] = [a[pivot], a[c]];
    [b[c], b[pivot]] = [b[pivot], b[c]];
    for (let r = c + 1; r < n; r++) {
      const k = a[r][c] / a[c][c];
      for (let j = c; j < n; j++) a[r][j] -= k * a[c][j];
      b[r] -= k * b[c];
    }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r];
    for (let j = r + 1; j < n; j++) s -= a[r][j] * x[j];
    x[r] = s / a[r][r];
  }
  return x;
}

/** Fits y (0/1) on rows x; `l2` the penalty on the weights. */
export function fitLogistic(
  x: number[][],
  y: number[],
  l2 = 1,
  steps = 50,
): Logistic {
  const d = x[0]?.length ?? 0;
  // Parameter vector: weights, then the bias (last).
  let beta = new Array(d + 1).fill(0);
  for (let step = 0; step < steps; step++) {
    const grad = new Array(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array(d + 1).fill(0));
    for (let r = 0; r < x.length; r++) {
      const row = [...x[r], 1];
      let t = 0;
      for (let i = 0; i <= d; i++) t += beta[i] * row[i];
      const p = sigmoid(t);
      const v = Math.max(p * (1 - p), 1e-9);
      for (let i = 0; i <= d; i++) {
        grad[i] += (p - y[r]) * row[i];
        for (let j = i; j <= d; j++) hess[i][j] += v * row[i] * row[j];
      }
    }
    for (let i = 0; i <= d; i++) {
      for (let j = 0; j < i; j++) hess[i][j] = hess[j][i];
      if (i < d) {
        grad[i] += l2 * beta[i];
        hess[i][i] += l2;
      } else hess[i][i] += 1e-9;
    }
    const delta = solve(hess, grad);
    beta = beta.map((b, i) => b - delta[i]);
    if (Math.max(...delta.map(Math.abs)) < 1e-8) break;
  }
  return { weights: beta.slice(0, d), bias: beta[d] };
}
