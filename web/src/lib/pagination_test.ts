import assert from "node:assert/strict";
import { clampPage, pageWindow, shownRange } from "./pagination.ts";

Deno.test("pageWindow shows at most 5 pages around the current one", () => {
  assert.deepEqual(pageWindow(1, 3), [1, 2, 3]);
  assert.deepEqual(pageWindow(1, 10), [1, 2, 3, 4, 5]);
  assert.deepEqual(pageWindow(5, 10), [3, 4, 5, 6, 7]);
  assert.deepEqual(pageWindow(10, 10), [6, 7, 8, 9, 10]);
  assert.deepEqual(pageWindow(1, 0), [1]);
});

Deno.test("clampPage accepts only 1 to totalPages", () => {
  assert.equal(clampPage(0, 4), 1);
  assert.equal(clampPage(9, 4), 4);
  assert.equal(clampPage(Number.NaN, 4), 1);
  assert.equal(clampPage(3, 4), 3);
});

Deno.test("shownRange gives a and b of 'Showing a to b of total'", () => {
  assert.deepEqual(shownRange(1, 10, 23), { from: 1, to: 10 });
  assert.deepEqual(shownRange(3, 10, 23), { from: 21, to: 23 });
  assert.deepEqual(shownRange(1, 10, 0), { from: 0, to: 0 });
});
