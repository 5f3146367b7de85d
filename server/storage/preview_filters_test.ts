// The preview's filter as read from a query (applied by
// results/job_results.ts, tested there and in store_contract_owners.ts).
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parsePreviewFilter } from "./preview_filters.ts";

Deno.test("query parameters are checked", () => {
  const parse = (q: string) => parsePreviewFilter(new URLSearchParams(q));
  assertEquals(parse("network_type=hosting&status=kept&q=%20acme%20"), {
    filter: { networkType: "hosting", status: "kept", text: "acme" },
  });
  assertEquals(parse(""), { filter: {} });
  assertEquals(
    "error" in parse("network_type=residential"),
    true,
  );
  assertEquals(parse("status=all"), {
    error: "status must be one of kept, filtered, failed",
  });
  assertEquals("error" in parse(`q=${"x".repeat(201)}`), true);
});
