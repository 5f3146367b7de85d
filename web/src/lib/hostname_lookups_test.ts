import assert from "node:assert/strict";
import { hostnameLookupsText } from "./hostname_lookups.ts";

Deno.test("the host-name line names every outcome with its count", () => {
  assert.equal(
    hostnameLookupsText({
      answered: 41_200,
      noName: 8_300,
      timedOut: 500,
      skipped: 0,
    }),
    "Host names: 41,200 found · 8,300 none exist · 500 timed out · 0 skipped",
  );
});
