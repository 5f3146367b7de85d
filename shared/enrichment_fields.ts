// The one description of an enrichment record's fields. The wire types, the
// store's columns and insert values, the zod/OpenAPI schemas, the progress commit
// codec and the downloads all derive from this table: add or reorder a field
// here and nowhere else.

/** "Data to Include" groups a job or lookup can ask for, in output order. */
export const FIELD_GROUPS = [
  "geolocation",
  "domain",
  "company",
  "network",
  "registration",
] as const;
export type FieldGroup = (typeof FIELD_GROUPS)[number];

/** Fields of no option group: every job row has them, whatever it asked. */
export const ALWAYS = "always";

export interface FieldSpec {
  readonly name: string;
  readonly group: FieldGroup | typeof ALWAYS;
  /** Column type in the results table. */
  readonly sql: "TEXT" | "REAL";
  /** JSON type on the wire (always nullable). */
  readonly wire: "string" | "number";
  readonly example: string | number;
  readonly description?: string;
}

/** The enrichment fields besides the address, in download column order. */
export const ENRICHMENT_FIELD_TABLE = [
  {
    name: "country",
    group: "geolocation",
    sql: "TEXT",
    wire: "string",
    example: "United States",
  },
  {
    name: "country_code",
    group: "geolocation",
    sql: "TEXT",
    wire: "string",
    example: "US",
    description: "ISO 3166-1 alpha-2",
  },
  {
    name: "region",
    group: "geolocation",
    sql: "TEXT",
    wire: "string",
    example: "California",
  },
  {
    name: "city",
    group: "geolocation",
    sql: "TEXT",
    wire: "string",
    example: "Mountain View",
  },
  {
    name: "latitude",
    group: "geolocation",
    sql: "REAL",
    wire: "number",
    example: 37.422,
  },
  {
    name: "longitude",
    group: "geolocation",
    sql: "REAL",
    wire: "number",
    example: -122.085,
  },
  {
    name: "hostname",
    group: "domain",
    sql: "TEXT",
    wire: "string",
    example: "dns.google",
    description: "From reverse DNS (PTR)",
  },
  {
    name: "domain",
    group: "domain",
    sql: "TEXT",
    wire: "string",
    example: "dns.google",
    description: "Registrable domain of the host name",
  },
  {
    name: "company",
    group: "company",
    sql: "TEXT",
    wire: "string",
    example: "Google LLC",
    description:
      "The organisation holding the address; null for consumer access networks",
  },
  {
    name: "network_type",
    group: "company",
    sql: "TEXT",
    wire: "string",
    example: "hosting",
    description:
      "consumer_isp, mobile, hosting, business, education or government",
  },
  {
    name: "classification_reason",
    group: "company",
    sql: "TEXT",
    wire: "string",
    example: "curated hosting AS",
    description: "Why the network type was chosen, in a few words",
  },
  {
    name: "classification_confidence",
    group: "company",
    sql: "REAL",
    wire: "number",
    example: 0.97,
    description:
      "How likely the filter's answer (filtered or kept) is right, 0-1, " +
      "calibrated on labelled networks; null where nothing measures it " +
      "(a host name's cue, your own database's type)",
  },
  {
    name: "isp",
    group: "network",
    sql: "TEXT",
    wire: "string",
    example: "Google LLC",
  },
  {
    name: "asn",
    group: "network",
    sql: "TEXT",
    wire: "string",
    example: "AS15169 Google LLC",
    description: "AS number and name",
  },
  {
    name: "registered_org",
    group: "registration",
    sql: "TEXT",
    wire: "string",
    example: "ACME CORP",
    description: "Registrant of the address block, from RDAP (online, opt-in)",
  },
  {
    name: "registered_network",
    group: "registration",
    sql: "TEXT",
    wire: "string",
    example: "12.34.56.0/26",
    description: "The registered block (CIDR), from RDAP",
  },
  {
    name: "registered_country",
    group: "registration",
    sql: "TEXT",
    wire: "string",
    example: "US",
    description: "The registration's country code, from RDAP",
  },
  {
    name: "abuse_email",
    group: "registration",
    sql: "TEXT",
    wire: "string",
    example: "abuse@example.net",
    description: "Where to report abuse from the block, from RDAP",
  },
  {
    name: "ip_used",
    group: ALWAYS,
    sql: "TEXT",
    wire: "string",
    example:
      "Forwarded chain of 2 addresses; used the first address, 81.2.69.142",
    description:
      "Set when the address looked up is not the cell as it stands (a " +
      "forwarded chain, spaces, quotes, brackets or a port around it, an " +
      "IPv4-mapped IPv6 address, a resolved host name): which address was " +
      "used and why; null otherwise",
  },
] as const satisfies readonly FieldSpec[];

export type EnrichmentFieldSpec = (typeof ENRICHMENT_FIELD_TABLE)[number];
export type EnrichmentField = EnrichmentFieldSpec["name"];

/** Field names in output order. */
export const ENRICHMENT_FIELDS: readonly EnrichmentField[] =
  ENRICHMENT_FIELD_TABLE.map((f) => f.name);

type WireValue<F> = F extends { wire: "number" } ? number : string;

/** The enrichment values of one address, typed from the table. */
export type EnrichmentValues = {
  [F in EnrichmentFieldSpec as F["name"]]: WireValue<F> | null;
};

/** The fields of one group, in output order. */
export function fieldsOfGroup(
  group: FieldGroup | typeof ALWAYS,
): EnrichmentField[] {
  return ENRICHMENT_FIELD_TABLE.filter((f) => f.group === group).map((f) =>
    f.name
  );
}

/**
 * Compiles a function whose body names each field as a plain property
 * (`${name}` in `template`, once per field, joined by ", "). Per-row code
 * built this way runs as fast as a hand-written literal, where a loop over
 * field names would make each property access a dynamic lookup.
 */
export function compileOverFields<F>(
  fields: readonly EnrichmentField[],
  params: string[],
  body: (list: (template: (name: string) => string) => string) => string,
): F {
  for (const name of fields) {
    if (!/^[a-z][a-z0-9_]*$/.test(name)) {
      throw new Error(`not a field name: ${name}`);
    }
  }
  const list = (template: (name: string) => string) =>
    fields.map(template).join(", ");
  return new Function(...params, body(list)) as F;
}
