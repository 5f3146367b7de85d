// Zod schemas of the public lookup API: they validate the requests and
// generate the OpenAPI document (server/routes/openapi.ts), so the two agree.
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ZodError, ZodIssue } from "zod";
import {
  BATCH_MAX_IPS,
  type BatchLookupRequest,
  type BigQueryRequest as BigQueryRequestWire,
  ENRICHMENT_FIELDS,
  type LookupField,
  type LookupResponse,
} from "../../shared/wire.ts";
import { parseIp } from "../enrichment/ip_input.ts";
import {
  type Enrichment,
  type EnrichOptions,
  errorText,
} from "../enrichment/types.ts";

export const INVALID_FORMAT = "Invalid IP address format";
export const TOO_MANY = `A request holds at most ${BATCH_MAX_IPS} IP ` +
  `addresses; split larger lists into several requests`;
export const NOT_JSON =
  "Send the body as JSON with the header Content-Type: application/json";

/** Text that reads as an IP address (public or not): what the engine takes. */
export const isIpText = (text: string) => {
  const parsed = parseIp(text);
  return parsed.ok || parsed.failure.kind !== "invalid";
};

const text = (example: string, description?: string) =>
  z.string().nullable().openapi({ example, description });
const coordinate = (example: number) =>
  z.number().nullable().openapi({ example });

export const NETWORK_TYPES = [
  "consumer_isp",
  "mobile",
  "hosting",
  "education",
  "government",
  "business",
] as const;

export const LookupSuccess = z.object({
  ip: z.string().openapi({ example: "8.8.8.8" }),
  success: z.literal(true),
  country: text("United States"),
  country_code: text("US", "ISO 3166-1 alpha-2"),
  region: text("California"),
  city: text("Mountain View"),
  latitude: coordinate(37.422),
  longitude: coordinate(-122.085),
  hostname: text("dns.google", "From reverse DNS (PTR)"),
  domain: text("dns.google", "Registrable domain of the host name"),
  company: text(
    "Google LLC",
    "The organisation holding the address; null for consumer access networks",
  ),
  network_type: z.string().nullable().openapi({
    enum: [...NETWORK_TYPES, null],
    example: "hosting",
  }),
  classification_reason: text(
    "curated hosting AS",
    "Why the network type was chosen, in a few words",
  ),
  isp: text("Google LLC"),
  asn: text("AS15169 Google LLC", "AS number and name"),
  ispFiltered: z.boolean().openapi({
    description: "A consumer broadband or mobile network (left out of " +
      "job downloads)",
  }),
}).openapi("LookupSuccess");

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
      `(${INVALID_FORMAT}, a private or reserved range, no data found)`,
  },
);

export const LookupQuery = z.object({
  ip: z.string({ required_error: INVALID_FORMAT })
    .trim()
    .refine(isIpText, INVALID_FORMAT)
    .openapi({
      param: { name: "ip", in: "query" },
      description: 'IPv4 or IPv6 address; a port ("1.2.3.4:80") is ignored',
      example: "8.8.8.8",
    }),
});

const BatchEntry = z.string().max(256).openapi({ example: "8.8.8.8" });
const BatchIps = z.array(BatchEntry).max(BATCH_MAX_IPS, TOO_MANY);

export const BatchRequest = z.union([
  BatchIps,
  z.object({ ips: BatchIps }),
]).openapi("BatchLookupRequest", {
  description: `Up to ${BATCH_MAX_IPS} addresses, as an array or as ` +
    '{ "ips": [...] }. An entry that is not an IP address fails alone.',
  example: ["8.8.8.8", "1.1.1.1", "not-an-ip"],
});

export const BatchResponse = z.array(LookupResult).openapi(
  "BatchLookupResponse",
  { description: "One answer per address, in the order sent" },
);

export const ErrorResponse = z.object({
  message: z.string(),
}).openapi("Error");

// --- BigQuery remote functions ---

/** Fields a BigQuery caller may select (userDefinedContext.fields). */
export const LOOKUP_FIELDS: readonly LookupField[] = [
  "ip",
  ...ENRICHMENT_FIELDS,
  "ispFiltered",
];

const FieldList = z.string()
  .transform((value, ctx) => {
    const names = value.split(",").map((s) => s.trim()).filter(Boolean);
    const unknown = names.find((n) => !LOOKUP_FIELDS.includes(n as never));
    if (unknown !== undefined || names.length === 0) {
      ctx.addIssue({
        code: "custom",
        message: `Unknown field "${unknown ?? value}": choose from ` +
          LOOKUP_FIELDS.join(", "),
      });
      return z.NEVER;
    }
    return names as LookupField[];
  })
  .openapi({
    type: "string",
    description: "Comma-separated fields each reply holds (success and " +
      "error are always there); all fields when absent",
    example: "country,company,asn",
  });

/** The example from BigQuery's documentation of remote functions. */
export const BIGQUERY_EXAMPLE: BigQueryRequestWire = {
  requestId: "124ab1c",
  caller: "//bigquery.googleapis.com/projects/myproject/jobs/" +
    "myproject:US.bquxjob_5b4c112c_17961fafeaf",
  sessionUser: "test-user@test-company.com",
  userDefinedContext: { fields: "country,company,asn" },
  calls: [["8.8.8.8"], [null], ["not-an-ip"]],
};

export const BigQueryRequest = z.object({
  requestId: z.string().optional(),
  caller: z.string().optional(),
  sessionUser: z.string().optional(),
  userDefinedContext: z.object({ fields: FieldList.optional() })
    .catchall(z.string())
    .optional(),
  calls: z.array(
    z.array(z.string().nullable()).min(1).openapi({
      description: "The function's arguments for one row: the address " +
        "(null for SQL NULL)",
    }),
  ).max(BATCH_MAX_IPS, TOO_MANY),
}).openapi("BigQueryRequest", {
  description: "What BigQuery sends to a remote function endpoint",
  example: BIGQUERY_EXAMPLE,
});

export const BigQueryReply = z.object({
  replies: z.array(
    z.record(z.string(), z.unknown()).nullable().openapi({
      description: "The LookupResult of one call (only the selected fields, " +
        "plus success and error), or null for a NULL address",
    }),
  ).openapi({ description: "One JSON value per call, in order" }),
}).openapi("BigQueryReply", {
  example: {
    replies: [
      {
        success: true,
        country: "United States",
        company: "Google LLC",
        asn: "AS15169 Google LLC",
      },
      null,
      { success: false, error: INVALID_FORMAT },
    ],
  },
});

export const BigQueryError = z.object({
  errorMessage: z.string(),
}).openapi("BigQueryError");

// --- answers ---

/** The single-lookup answer of SPEC.md section 3 for one engine result. */
export function toLookupResponse(e: Enrichment): LookupResponse {
  if (!e.success) {
    const error = errorText(e, "lookup") ?? INVALID_FORMAT;
    return { ip: e.ip, success: false, error };
  }
  return {
    ip: e.ip,
    success: true,
    country: e.country,
    country_code: e.country_code,
    region: e.region,
    city: e.city,
    latitude: e.latitude,
    longitude: e.longitude,
    hostname: e.hostname,
    domain: e.domain,
    company: e.company,
    network_type: e.network_type,
    classification_reason: e.classification_reason,
    isp: e.isp,
    asn: e.asn,
    ispFiltered: e.ispFiltered,
  };
}

const FIELD_GROUPS: Record<keyof EnrichOptions, LookupField[]> = {
  geolocation: [
    "country",
    "country_code",
    "region",
    "city",
    "latitude",
    "longitude",
  ],
  domain: ["hostname", "domain"],
  company: [
    "company",
    "network_type",
    "classification_reason",
    "ispFiltered",
  ],
  network: ["isp", "asn"],
};

/** The engine options the selected fields need (no DNS unless asked for). */
export function optionsFor(fields: readonly LookupField[]): EnrichOptions {
  const needs = (group: keyof EnrichOptions) =>
    FIELD_GROUPS[group].some((f) => fields.includes(f));
  const options: EnrichOptions = {
    geolocation: needs("geolocation"),
    domain: needs("domain"),
    company: needs("company"),
    network: needs("network"),
  };
  if (!Object.values(options).some(Boolean)) {
    return { geolocation: true, domain: false, company: true, network: true };
  }
  return options;
}

// --- validation messages ---

function where(path: (string | number)[]): string {
  if (path.length === 0) return "";
  const text = path.map((p) => typeof p === "number" ? `[${p}]` : `.${p}`)
    .join("").replace(/^\./, "");
  return `${text}: `;
}

/** One readable line for a failed parse; unions report the matching branch. */
export function zodMessage(error: ZodError): string {
  let issue: ZodIssue = error.issues[0];
  while (issue.code === "invalid_union") {
    const depth = issue.path.length;
    // The branch whose type matched at this level got further.
    const branch = issue.unionErrors.find((e) =>
      !e.issues.some((i) =>
        i.code === "invalid_type" && i.path.length === depth
      )
    );
    if (!branch) break;
    issue = branch.issues[0];
  }
  return `${where(issue.path)}${issue.message}`;
}

/** The value a validator checked (@hono/zod-validator passes it as data). */
export function inputOf(result: object): unknown {
  return (result as { data?: unknown }).data;
}

/** Whether a request declared a JSON body. */
export function sentJson(c: Context): boolean {
  const type = c.req.header("content-type") ?? "";
  return /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type);
}

// Compile-time checks that the schemas and the wire types agree.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(_: T) => {};
agree<Same<z.infer<typeof LookupResult>, LookupResponse>>(true);
agree<Same<z.input<typeof BatchRequest>, BatchLookupRequest>>(true);
agree<
  Same<
    Omit<z.input<typeof BigQueryRequest>, "userDefinedContext">,
    Omit<BigQueryRequestWire, "userDefinedContext">
  >
>(true);

// --- documented responses shared by the public routes ---

const header = (description: string) => ({
  description,
  schema: { type: "integer" as const },
});

/** Headers on every answer of a rate-limited route (when limits are on). */
export const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": header("Lookups a client may make at once (the burst)"),
  "RateLimit-Remaining": header("Lookups left right now"),
  "RateLimit-Reset": header("Seconds until the full burst is available again"),
  "RateLimit-Policy": {
    description: 'The bucket and its refill window, e.g. "60;w=6"',
    schema: { type: "string" as const },
  },
};

export function tooManyRequests(schema: z.ZodTypeAny) {
  return {
    description: "Over the rate limit for this client address",
    headers: {
      ...RATE_LIMIT_HEADERS,
      "Retry-After": header("Seconds to wait before trying again"),
    },
    content: { "application/json": { schema } },
  };
}

export function tooLarge(schema: z.ZodTypeAny) {
  return {
    description: "The body is over 1 MiB",
    content: { "application/json": { schema } },
  };
}
