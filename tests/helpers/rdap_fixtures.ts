// RDAP "ip network" answers for the loopback server, shaped after the
// examples of RFC 9083 (section 5.4 network, section 5.1 entity with a
// jCard): a carrier's aggregate, a customer's block inside it with a
// registrant and a nested abuse contact, the RFC's own IPv6 example, a
// network with only a name, and plain blocks for counting requests.

type Json = Record<string, unknown>;

const CONFORMANCE = ["rdap_level_0", "cidr0"];

/** A jCard (RFC 7095) with the properties registries fill in. */
export function vcard(
  fn: string,
  extra: { kind?: string; email?: string; org?: string } = {},
): unknown[] {
  const properties: unknown[][] = [
    ["version", {}, "text", "4.0"],
    ["fn", {}, "text", fn],
  ];
  if (extra.kind) properties.push(["kind", {}, "text", extra.kind]);
  if (extra.org) properties.push(["org", { type: "work" }, "text", extra.org]);
  if (extra.email) {
    properties.push(["email", { type: "work" }, "text", extra.email]);
  }
  return ["vcard", properties];
}

function entity(
  handle: string,
  roles: string[],
  card: unknown[],
  entities: Json[] = [],
): Json {
  return {
    objectClassName: "entity",
    handle,
    vcardArray: card,
    roles,
    ...(entities.length ? { entities } : {}),
    events: [{
      eventAction: "registration",
      eventDate: "1990-12-31T23:59:59Z",
    }],
  };
}

function network(fields: Json): Json {
  return {
    rdapConformance: CONFORMANCE,
    objectClassName: "ip network",
    status: ["active"],
    port43: "whois.example.net",
    notices: [{
      title: "Terms of Use",
      description: ["Service subject to the test's Terms of Use."],
    }],
    ...fields,
  };
}

/** A carrier's /8, registered to the carrier itself. */
export const CARRIER = network({
  handle: "NET-12-0-0-0-1",
  startAddress: "12.0.0.0",
  endAddress: "12.255.255.255",
  ipVersion: "v4",
  name: "ATT-EXAMPLE-NET",
  type: "DIRECT ALLOCATION",
  country: "US",
  cidr0_cidrs: [{ v4prefix: "12.0.0.0", length: 8 }],
  entities: [
    entity(
      "ATTS-EX",
      ["registrant"],
      vcard("AT&T Services, Inc.", { kind: "org" }),
    ),
    entity(
      "ABUSE7-EX",
      ["abuse"],
      vcard("Abuse desk", { email: "abuse@att.example" }),
    ),
  ],
});

/** A customer's /26 reassigned inside the carrier's /8. */
export const CUSTOMER = network({
  handle: "NET-12-34-56-0-1",
  parentHandle: "NET-12-0-0-0-1",
  startAddress: "12.34.56.0",
  endAddress: "12.34.56.63",
  ipVersion: "v4",
  name: "ACME-BLK-1",
  type: "REASSIGNED",
  country: "us",
  cidr0_cidrs: [{ v4prefix: "12.34.56.0", length: 26 }],
  entities: [
    entity(
      "ACME-1",
      ["registrant"],
      vcard("ACME CORP", { kind: "org" }),
      [entity(
        "ACME-NOC",
        ["abuse", "technical"],
        vcard("ACME NOC", { email: "noc@acme.example" }),
      )],
    ),
  ],
});

/** RFC 9083's IPv6 network example (XXXX-RIR, "Joe User"). */
export const RFC_EXAMPLE_V6 = network({
  handle: "XXXX-RIR",
  startAddress: "2001:db8::",
  endAddress: "2001:db8:0:ffff:ffff:ffff:ffff:ffff",
  ipVersion: "v6",
  name: "NET-RTR-1",
  type: "DIRECT ALLOCATION",
  country: "AU",
  parentHandle: "YYYY-RIR",
  entities: [
    entity(
      "XXXX",
      ["registrant"],
      vcard("Joe User", {
        kind: "individual",
        org: "Example",
        email: "joe.user@example.com",
      }),
      [entity(
        "ABU-RIR",
        ["abuse"],
        vcard("Abuse Team", { email: "abuse@example.com" }),
      )],
    ),
  ],
});

/** No registrant, no cidr0: the name stands in, CIDRs come from the range. */
export const NAME_ONLY = network({
  handle: "NET-45-0-0-0-1",
  startAddress: "45.0.0.0",
  endAddress: "45.0.2.255",
  ipVersion: "v4",
  name: "EXAMPLE-NAME-ONLY",
  entities: [entity("TECH-1", ["technical"], vcard("Tech Person"))],
});

/** 60.N.0.0/16 for N in 0..count-1: one distinct block each. */
export function plainBlocks(count: number): Json[] {
  return Array.from({ length: count }, (_, n) =>
    network({
      handle: `NET-60-${n}-0-0-1`,
      startAddress: `60.${n}.0.0`,
      endAddress: `60.${n}.255.255`,
      ipVersion: "v4",
      name: `BLOCK-${n}`,
      cidr0_cidrs: [{ v4prefix: `60.${n}.0.0`, length: 16 }],
    }));
}

export const ALL_NETWORKS = [
  CARRIER,
  CUSTOMER,
  RFC_EXAMPLE_V6,
  NAME_ONLY,
  ...plainBlocks(40),
];
