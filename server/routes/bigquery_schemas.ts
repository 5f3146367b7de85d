// Zod schemas of POST /api/bigquery, BigQuery's remote function protocol:
// they validate the request and are the OpenAPI document's schemas.
import { z } from "@hono/zod-openapi";
import {
  BATCH_MAX_IPS,
  type BigQueryRequest as BigQueryRequestWire,
} from "../../shared/wire.ts";
import { FieldList } from "./field_options.ts";
import { NOT_AN_IP_ADDRESS } from "./failure_text.ts";
import { agree, OVER_BATCH_MAX_IPS, type Same } from "./lookup_schemas.ts";

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
  ).max(BATCH_MAX_IPS, OVER_BATCH_MAX_IPS),
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
      { success: false, error: NOT_AN_IP_ADDRESS },
    ],
  },
});

export const BigQueryError = z.object({
  errorMessage: z.string(),
}).openapi("BigQueryError");

// Compile-time check that the schema and the wire type agree.
agree<
  Same<
    Omit<z.input<typeof BigQueryRequest>, "userDefinedContext">,
    Omit<BigQueryRequestWire, "userDefinedContext">
  >
>(true);
