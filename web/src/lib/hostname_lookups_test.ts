import assert from "node:assert/strict";
import { hostnameOutcomes } from "./hostname_lookups.ts";

Deno.test("the host-name outcomes: each count with what it means", () => {
  const outcomes = hostnameOutcomes({
    answered: 41_200,
    noName: 8_300,
    timedOut: 500,
    skipped: 0,
  });
  assert.deepEqual(outcomes.map((o) => o.text), [
    "41,200 found",
    "8,300 none exist",
    "500 timed out",
    "0 skipped",
  ]);
  assert.match(outcomes[1].meaning, /no host name/);
  assert.match(outcomes[3].meaning, /resting/);
});
