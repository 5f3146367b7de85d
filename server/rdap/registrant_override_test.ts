// The customer-inside-carrier decision: who counts as the operator itself,
// and which rows it applies to.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  CARRIER,
  CUSTOMER,
  NAME_ONLY,
} from "../../tests/helpers/rdap_fixtures.ts";
import { parseIpNetwork } from "./rdap_parser.ts";
import {
  couldHideCustomers,
  nameTokens,
  registrantOverride,
  sameOrganisation,
} from "./registrant_override.ts";

const consumerRow = {
  asn: 7018,
  org: "ATT-INTERNET4",
  networkType: "consumer_isp",
};

Deno.test("a customer's block inside a carrier names the customer and keeps the row", () => {
  assertEquals(registrantOverride(parseIpNetwork(CUSTOMER), consumerRow), {
    company: "ACME CORP",
    keep: true,
    reason: "registered to ACME CORP inside AS7018",
  });
});

Deno.test("the carrier's own block changes nothing", () => {
  assertEquals(registrantOverride(parseIpNetwork(CARRIER), consumerRow), null);
  assertEquals(
    registrantOverride(parseIpNetwork(CARRIER), {
      ...consumerRow,
      org: "AT&T Corp.",
    }),
    null,
  );
});

Deno.test("a network name alone, a placeholder, or no answer changes nothing", () => {
  assertEquals(
    registrantOverride(parseIpNetwork(NAME_ONLY), consumerRow),
    null,
  );
  const placeholder = { ...parseIpNetwork(CUSTOMER), org: "Private Customer" };
  assertEquals(registrantOverride(placeholder, consumerRow), null);
  assertEquals(registrantOverride(null, consumerRow), null);
});

Deno.test("only networks that could hide customers are considered", () => {
  const customer = parseIpNetwork(CUSTOMER);
  const hosting = { ...consumerRow, networkType: "hosting" };
  assertEquals(registrantOverride(customer, hosting), null);
  const business = { ...consumerRow, networkType: "business" };
  assertEquals(registrantOverride(customer, business), null);
  const carriers = couldHideCustomers((asn) => asn === 7018);
  assertEquals(
    registrantOverride(customer, business, carriers)?.company,
    "ACME CORP",
  );
  assertEquals(
    registrantOverride(customer, { ...consumerRow, networkType: "mobile" })
      ?.keep,
    true,
  );
});

Deno.test("names compare by their distinctive words", () => {
  assertEquals(nameTokens("Comcast Cable Communications, LLC"), ["comcast"]);
  assertEquals(nameTokens("COMCAST-7922"), ["comcast"]);
  assertEquals(nameTokens("Deutsche Telekom AG"), ["deutsche", "telekom"]);
  assertEquals(sameOrganisation("AT&T Services, Inc.", "ATT-INTERNET4"), true);
  assertEquals(
    sameOrganisation("Telefónica de España", "TELEFONICA_DE_ESPANA"),
    true,
  );
  assertEquals(sameOrganisation("Hilton Worldwide", "COMCAST-7922"), false);
  assertEquals(sameOrganisation("Inc.", "Inc."), false);
});
