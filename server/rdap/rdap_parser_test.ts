// Parsing RFC 9083 ip network answers (fixtures shaped after the RFC's
// examples) and the address arithmetic behind CIDRs and cache keys.
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import {
  CARRIER,
  CUSTOMER,
  NAME_ONLY,
  RFC_EXAMPLE_V6,
} from "../../tests/helpers/rdap_fixtures.ts";
import {
  addressKey,
  parseAddress,
  parseCidr,
  spanOf,
  spanToCidrs,
} from "./ip_span.ts";
import { parseIpNetwork, RdapFormatError } from "./rdap_parser.ts";

Deno.test("a customer block: registrant fn, cidr0, country, nested abuse email", () => {
  const reg = parseIpNetwork(CUSTOMER);
  assertEquals(reg, {
    org: "ACME CORP",
    orgIsRegistrant: true,
    name: "ACME-BLK-1",
    handle: "NET-12-34-56-0-1",
    kind: "REASSIGNED",
    network: "12.34.56.0/26",
    startAddress: "12.34.56.0",
    endAddress: "12.34.56.63",
    country: "US",
    abuseEmail: "noc@acme.example",
  });
});

Deno.test("the RFC 9083 IPv6 example: Joe User, range to CIDR, AU", () => {
  const reg = parseIpNetwork(RFC_EXAMPLE_V6);
  assertEquals(reg.org, "Joe User");
  assertEquals(reg.network, "2001:db8::/48");
  assertEquals(reg.country, "AU");
  assertEquals(reg.abuseEmail, "abuse@example.com");
});

Deno.test("no registrant: the network name, several CIDRs joined", () => {
  const reg = parseIpNetwork(NAME_ONLY);
  assertEquals(reg.org, "EXAMPLE-NAME-ONLY");
  assertEquals(reg.orgIsRegistrant, false);
  assertEquals(reg.network, "45.0.0.0/23, 45.0.2.0/24");
  assertEquals(reg.abuseEmail, null);
  assertEquals(reg.country, null);
});

Deno.test("a direct abuse entity and a registrant of kind org", () => {
  const reg = parseIpNetwork(CARRIER);
  assertEquals(
    [reg.org, reg.abuseEmail, reg.network],
    ["AT&T Services, Inc.", "abuse@att.example", "12.0.0.0/8"],
  );
});

Deno.test("what is not an ip network is refused with a reason", () => {
  throws(() => parseIpNetwork("x"), RdapFormatError);
  throws(() => parseIpNetwork({ name: "NO-RANGE" }), /startAddress/);
  throws(
    () => parseIpNetwork({ startAddress: "10.0.0.9", endAddress: "10.0.0.1" }),
    /not valid/,
  );
  // Wrongly typed members are ignored, not fatal.
  const reg = parseIpNetwork({
    startAddress: "10.0.0.0",
    endAddress: "10.0.0.255",
    name: 5,
    entities: [{ roles: "registrant", vcardArray: ["vcard", "x"] }, null],
    cidr0_cidrs: [{ v4prefix: 1 }],
  });
  assertEquals([reg.org, reg.network], [null, "10.0.0.0/24"]);
});

Deno.test("ranges to CIDRs, keys that sort as numbers", () => {
  assertEquals(spanToCidrs(spanOf("10.0.0.1", "10.0.0.6")!), [
    "10.0.0.1/32",
    "10.0.0.2/31",
    "10.0.0.4/31",
    "10.0.0.6/32",
  ]);
  assertEquals(spanToCidrs(spanOf("0.0.0.0", "255.255.255.255")!), [
    "0.0.0.0/0",
  ]);
  assertEquals(spanToCidrs(parseCidr("2001:db8:8000::/33")!), [
    "2001:db8:8000::/33",
  ]);
  const v4 = parseAddress("::ffff:9.1.2.3")!;
  assertEquals([v4.family, addressKey(4, v4.value)], [4, "09010203"]);
  const a = addressKey(6, parseAddress("2001:db8::ffff")!.value);
  const b = addressKey(6, parseAddress("2001:db8:0:1::")!.value);
  assertEquals([a.length, a < b], [32, true]);
});
