// Rows of one key reuse one composed enrichment (jobs/row_results.ts):
// reuseFinished gives what composeFinished gives the row's own address and
// host name, for every kind of result a key can have.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  composeFinished,
  type HostName,
  type Located,
  type Network,
  reuseFinished,
} from "./compose.ts";
import type { EnrichOptions } from "./types.ts";

const options: EnrichOptions = {
  geolocation: true,
  domain: true,
  company: true,
  network: true,
};
const place = {
  country_code: "DE",
  country: "Germany",
  region: "Hesse",
  city: "Frankfurt",
  latitude: 50.1,
  longitude: 8.7,
};
const network: Network = {
  org: "Example GmbH",
  asnText: "AS64500 Example GmbH",
  asn: 64500,
  kind: { type: "business", filtered: false, reason: "model", confidence: 0.9 },
};
const located: Record<string, Located> = {
  "a place and a network": { place, network },
  "no data": { place: null, network: null },
  "a corrupt record": {
    place: { ...place, error: "unreadable record" },
    network,
  },
};
const named = (host: string): HostName => ({
  hostname: host,
  domain: host.split(".").slice(-2).join("."),
});

Deno.test("a key's enrichment reused for another row is that row's as composed", () => {
  for (const [what, pieces] of Object.entries(located)) {
    for (
      const [first, second] of [
        [{ hostname: null, domain: null }, { hostname: null, domain: null }],
        [named("a.one.example"), named("b.two.example")],
      ]
    ) {
      const reused = reuseFinished(
        composeFinished("192.0.2.1", pieces, first, options),
        "198.51.100.7",
        second,
      );
      assertEquals(
        reused,
        composeFinished("198.51.100.7", pieces, second, options),
        what,
      );
    }
  }
});
