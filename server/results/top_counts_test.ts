// A top list added up from chunks' heads and, where needed, their tails is
// the same as every key of every chunk added up: skewed and flat counts,
// small heads that force tails to be read, ties, keys with codes, and the
// whole lists that versions before top_counts.ts kept.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { KeyCount } from "./chunk_output.ts";
import {
  compareCounts,
  splitTop,
  type TopCount,
  TopMerge,
} from "./top_counts.ts";

/** A seeded generator (the same chunks every run). */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/**
 * Chunks of counts: keys drawn with weight 1/(rank+1)^skew; pairs of keys
 * share a name, one with a code.
 */
function chunks(
  seed: number,
  count: number,
  keys: number,
  rows: number,
  skew: number,
): KeyCount[][] {
  const next = random(seed);
  const weights = Array.from({ length: keys }, (_, k) => 1 / (k + 1) ** skew);
  const sum = weights.reduce((a, b) => a + b, 0);
  return Array.from({ length: count }, () => {
    const counts = new Map<number, number>();
    for (let r = 0; r < rows; r++) {
      let pick = next() * sum;
      let k = 0;
      while (k < keys - 1 && (pick -= weights[k]) > 0) k++;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    return [...counts].map((
      [k, n],
    ): KeyCount => [`key ${k >> 1}`, k % 2 ? "XX" : "", n]);
  });
}

function everyKey(lists: KeyCount[][], n: number): TopCount[] {
  const all = new Map<string, TopCount>();
  for (const list of lists) {
    for (const [key, code, count] of list) {
      const id = `${key}|${code}`;
      const known = all.get(id);
      if (known) known.n += count;
      else all.set(id, { key, code, n: count });
    }
  }
  return [...all.values()].sort(compareCounts).slice(0, n);
}

async function merged(
  lists: KeyCount[][],
  n: number,
  headKeys: number,
): Promise<{ top: TopCount[]; tailsRead: number }> {
  const merge = new TopMerge();
  let tailsRead = 0;
  for (const list of lists) {
    const stored = JSON.parse(JSON.stringify(splitTop(list, headKeys)));
    merge.add(stored, () => {
      tailsRead++;
      return Promise.resolve(stored.tail);
    });
  }
  return { top: await merge.top(n), tailsRead };
}

Deno.test("the top keys are exact, whatever the heads hold", async () => {
  for (const skew of [0, 0.7, 1.2, 2]) {
    for (const headKeys of [1, 3, 20, 500]) {
      const lists = chunks(7 + headKeys, 12, 400, 600, skew);
      for (const n of [1, 5, 20]) {
        const { top } = await merged(lists, n, headKeys);
        assertEquals(top, everyKey(lists, n), `skew ${skew}, head ${headKeys}`);
      }
    }
  }
});

Deno.test("with skewed counts few tails are read", async () => {
  const lists = chunks(3, 40, 5000, 5000, 1.2);
  const { top, tailsRead } = await merged(lists, 20, 500);
  assertEquals(top, everyKey(lists, 20));
  // 40 chunks x 4 lists would be 160 tails; here not one list's worth.
  assertEquals(tailsRead < 40, true, `${tailsRead} tails read`);
});

Deno.test("ties are broken by key, then code", async () => {
  const lists: KeyCount[][] = [
    [["b", "", 2], ["a", "x", 2], ["a", "", 2], ["c", "", 1]],
    [["c", "", 1], ["a", "x", 0]],
  ];
  for (const headKeys of [1, 2, 10]) {
    const { top } = await merged(lists, 4, headKeys);
    assertEquals(top.map((t) => [t.key, t.code, t.n]), [
      ["a", "", 2],
      ["a", "x", 2],
      ["b", "", 2],
      ["c", "", 2],
    ]);
  }
});
