// Zod schemas of the lookup routes (/api/lookup, /api/lookup/batch): they
// validate the requests and are the OpenAPI document's schemas.
import { z } from "@hono/zod-openapi";
import {
  BATCH_MAX_IPS,
  type BatchLookupRequest,
  type LookupResponse,
} from "../../shared/wire.ts";
import { EXAMPLE_LOOKUP } from "../../shared/lookup_example.ts";
import { enrichmentFieldSchemas } from "./enrichment_schemas.ts";
import { FieldList } from "./field_options.ts";
import { NOT_AN_IP_ADDRESS } from "./failure_text.ts";

/** What a single lookup without an address answers (400). */
export const NO_IP_GIVEN =
  "No address given: ask /api/lookup?ip=<IPv4 or IPv6 address>";

/** Lookup answers: no ip_used; the registration fields only when asked. */
function lookupFields<T extends ReturnType<typeof enrichmentFieldSchemas>>(
  fields: T,
) {
  const {
    ip_used: _,
    registered_org,
    registered_network,
    registered_country,
    abuse_email,
    ...rest
  } = fields;
  return {
    ...rest,
    registered_org: registered_org.optional(),
    registered_network: registered_network.optional(),
    registered_country: registered_country.optional(),
    abuse_email: abuse_email.optional(),
  };
}

/** registration=1: also the block's registration data (RDAP, online). */
export const RegistrationFlag = z.enum(["0", "1"]).optional().openapi({
  description: "1: also the registration data of the address's block over " +
    "RDAP (online; 400 when the server has RDAP off)",
});

export const OVER_BATCH_MAX_IPS = `A request holds at most ${BATCH_MAX_IPS} ` +
  `IP addresses; split larger lists into several requests`;

export const LookupSuccess = z.object({
  ip: z.string().openapi({ example: "8.8.8.8" }),
  success: z.literal(true),
  // ip_used is a job row's (which address of a cell was looked up).
  ...lookupFields(enrichmentFieldSchemas()),
  ispFiltered: z.boolean().openapi({
    description: "A consumer broadband or mobile network (left out of " +
      "job downloads)",
  }),
  hostname_lookup: z.enum(["answered", "no_name", "timed_out", "skipped"])
    .optional().openapi({
      description: "How the host name was looked up: answered (a name), " +
        "no_name (none exists), timed_out (the DNS server did not answer " +
        "or failed), skipped (every DNS server is resting after failing, " +
        "so none was asked and the answer did not wait)",
    }),
}).openapi("LookupSuccess", { example: EXAMPLE_LOOKUP });

export const LookupFailure = z.object({
  ip: z.string().openapi({ example: "10.1.1.1" }),
  success: z.literal(false),
  error: z.string().openapi({
    example: "Private address (RFC 1918), not on the public internet",
  }),
}).openapi("LookupFailure");

export const LookupResult = z.union([LookupSuccess, LookupFailure]).openapi(
  "LookupResult",
  {
    description: "One address: its data, or success false and the reason " +
      `(${NOT_AN_IP_ADDRESS}, a private or reserved range, no data found)`,
  },
);

export const LookupQuery = z.object({
  ip: z.string({ required_error: NO_IP_GIVEN })
    .trim()
    .min(1, NO_IP_GIVEN)
    .openapi({
      param: { name: "ip", in: "query" },
      description: 'IPv4 or IPv6 address; a port ("1.2.3.4:80") is ignored. ' +
        "Text that is not an address answers 200 with success false, as a " +
        "private address does",
      example: "8.8.8.8",
    }),
  registration: RegistrationFlag.openapi({
    param: { name: "registration", in: "query" },
  }),
  fields: FieldList.optional().openapi({
    param: { name: "fields", in: "query" },
  }),
});

/** The batch route's query: the fields each answer holds. */
export const BatchQuery = z.object({
  fields: FieldList.optional().openapi({
    param: { name: "fields", in: "query" },
  }),
});

const BatchEntry = z.string().max(256).openapi({ example: "8.8.8.8" });
const BatchIps = z.array(BatchEntry).max(BATCH_MAX_IPS, OVER_BATCH_MAX_IPS);

export const BatchRequest = z.union([
  BatchIps,
  z.object({
    ips: BatchIps,
    registration: z.union([z.literal(0), z.literal(1), z.boolean()])
      .optional().openapi({
        description: "1: also each address's registration data (RDAP, " +
          "online; 400 when the server has RDAP off)",
      }),
  }),
]).openapi("BatchLookupRequest", {
  description: `Up to ${BATCH_MAX_IPS} addresses, as an array or as ` +
    '{ "ips": [...] }. An entry that is not an IP address fails alone.',
  example: ["8.8.8.8", "1.1.1.1", "not-an-ip"],
});

/** An answer cut to the fields= selection: those fields, success, error. */
export const SelectedLookup = z.object({
  success: z.boolean(),
  error: z.string().optional().openapi({
    description: "Why the address has no data (when success is false)",
  }),
}).catchall(z.union([z.string(), z.number(), z.boolean()]).nullable())
  .openapi("SelectedLookup", {
    description: "The fields named in fields=, with success (and error)",
    example: {
      country: "United States",
      asn: "AS15169 Google LLC",
      success: true,
    },
  });

/** A lookup answer: whole, or cut to the fields= selection. */
export const LookupAnswer = z.union([LookupResult, SelectedLookup]);

export const BatchResponse = z.array(LookupAnswer).openapi(
  "BatchLookupResponse",
  { description: "One answer per address, in the order sent" },
);

// Compile-time checks that the schemas and the wire types agree.
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false)
  : false;
export const agree = <T extends true>(_: T) => {};
agree<Same<z.infer<typeof LookupResult>, LookupResponse>>(true);
agree<Same<z.input<typeof BatchRequest>, BatchLookupRequest>>(true);
