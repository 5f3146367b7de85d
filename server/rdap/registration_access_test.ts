import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Network } from "../enrichment/compose.ts";
import type { Registration } from "./rdap_parser.ts";
import { registrationAccess } from "./registration_access.ts";
import { RegistrationNetworks } from "./registration_network.ts";

const block = (name: string | null, kind: string | null = null) =>
  ({
    org: name,
    orgIsRegistrant: false,
    name,
    handle: "NET-1",
    kind,
    network: "192.0.2.0/24",
    startAddress: "192.0.2.0",
    endAddress: "192.0.2.255",
    country: "US",
    abuseEmail: null,
  }) satisfies Registration;

Deno.test("access words in a block's name or kind", () => {
  assertEquals(registrationAccess(block("NET-DSL-POOL-3")), {
    type: "consumer_isp",
    said: "NET-DSL-POOL-3",
  });
  assertEquals(
    registrationAccess(block("BROADBAND_CUSTOMERS"))?.type,
    "consumer_isp",
  );
  assertEquals(registrationAccess(block("CGNAT1"))?.type, "consumer_isp");
  assertEquals(registrationAccess(block("XX-MOBILE-LTE"))?.type, "mobile");
  assertEquals(registrationAccess(block("NET-7", "DYNAMIC"))?.said, "DYNAMIC");
  // Words inside other words, and customer blocks, say nothing.
  for (const name of ["DYNAMICS-CORP", "BBQ-HOLDINGS", "ACME-BLK-1", null]) {
    assertEquals(
      registrationAccess(block(name, "REASSIGNED")),
      null,
      `${name}`,
    );
  }
});

const carrier = (filtered: boolean): Network => ({
  org: "Example Carrier",
  asnText: "AS64500 Example Carrier",
  asn: 64500,
  kind: {
    type: filtered ? "consumer_isp" : "business",
    filtered,
    reason: "curated transit/enterprise AS",
    confidence: 0.99,
  },
});

Deno.test("a kept carrier row in an access block is filtered, said why", () => {
  const networks = new RegistrationNetworks((asn) => asn === 64500);
  const kept = carrier(false);
  assertEquals(networks.worthAsking(kept), true);
  const shown = networks.apply(kept, block("EXAMPLE-DSL-POOL"));
  assertEquals(shown.kind, {
    type: "consumer_isp",
    filtered: true,
    reason: 'registration: block "EXAMPLE-DSL-POOL"',
    confidence: null,
  });
  assertEquals(shown.registration?.registered_network, "192.0.2.0/24");
  // Once per network and block; other blocks leave the answer.
  assertEquals(networks.apply(kept, block("EXAMPLE-DSL-POOL")) === shown, true);
  assertEquals(networks.apply(kept, block("EXAMPLE-CORE")).kind, kept.kind);
  // A filtered row stays as it was.
  const home = carrier(true);
  assertEquals(networks.apply(home, block("EXAMPLE-DSL-POOL")).kind, home.kind);
});
