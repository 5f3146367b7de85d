// Zod schemas of the enrichment fields, made from ENRICHMENT_FIELD_TABLE:
// each field is a nullable string or number with the table's example and
// description, so the OpenAPI document follows the table.
import { z } from "@hono/zod-openapi";
import {
  ENRICHMENT_FIELD_TABLE,
  type EnrichmentFieldSpec,
} from "../../shared/enrichment_fields.ts";
import { NETWORK_TYPES } from "../../shared/network_types.ts";

type FieldSchemas = {
  [F in EnrichmentFieldSpec as F["name"]]: F extends { wire: "number" }
    ? z.ZodNullable<z.ZodNumber>
    : z.ZodNullable<z.ZodString>;
};

function fieldSchema(spec: EnrichmentFieldSpec): z.ZodTypeAny {
  const base = spec.wire === "number" ? z.number() : z.string();
  const description = "description" in spec ? spec.description : undefined;
  return base.nullable().openapi({
    example: spec.example,
    description,
    ...(spec.name === "network_type" && { enum: [...NETWORK_TYPES, null] }),
  });
}

/** { country: nullable string, ..., latitude: nullable number, ... }. */
export function enrichmentFieldSchemas(): FieldSchemas {
  return Object.fromEntries(
    ENRICHMENT_FIELD_TABLE.map((spec) => [spec.name, fieldSchema(spec)]),
  ) as FieldSchemas;
}
