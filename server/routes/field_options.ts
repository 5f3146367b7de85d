// A selection of answer fields (fields= on /api/lookup and the batch,
// BigQuery's userDefinedContext.fields): how it is written and checked, the
// engine work it needs (no reverse DNS unless a host-name field is asked
// for) and the answer cut to it.
import { z } from "@hono/zod-openapi";
import {
  ENRICHMENT_FIELDS,
  type FieldGroup,
  fieldsOfGroup,
} from "../../shared/enrichment_fields.ts";
import type { LookupField, LookupResponse } from "../../shared/wire.ts";

type Scalar = string | number | boolean | null;

/** An answer cut to a selection: each value a JSON scalar. */
export type SelectedAnswer = { success: boolean; error?: string } & {
  [field: string]: Scalar;
};
import { ALL_OPTIONS, type EnrichOptions } from "../enrichment/types.ts";

const REGISTRATION: readonly string[] = fieldsOfGroup("registration");

/** Fields a caller may select. */
export const LOOKUP_FIELDS: readonly LookupField[] = [
  "ip",
  // Registration data is online and opt-in (registration=1): not selected.
  ...ENRICHMENT_FIELDS.filter((f) => !REGISTRATION.includes(f)),
  "ispFiltered",
  "hostname_lookup",
];

/**
 * The fields each option produces; ispFiltered comes with the company, how
 * the host name was looked up with the host name.
 */
function fieldsOfOption(group: FieldGroup): LookupField[] {
  const fields: LookupField[] = fieldsOfGroup(group);
  if (group === "company") return [...fields, "ispFiltered"];
  if (group === "domain") return [...fields, "hostname_lookup"];
  return fields;
}

/** "country,company,asn" -> the field names; unknown names are refused. */
export const FieldList = z.string()
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
    description: "Comma-separated fields each answer holds (success and " +
      "error are always there); all fields when absent. Without hostname, " +
      "domain or hostname_lookup no reverse DNS is done, so the answer " +
      "never waits on a DNS server.",
    example: "country,company,asn",
  });

/** Keeps the selected fields of an answer, plus success and error. */
export function selectedFields(
  answer: LookupResponse,
  fields: readonly LookupField[] | undefined,
): LookupResponse | SelectedAnswer {
  if (!fields) return answer;
  const all = answer as unknown as Record<string, Scalar | undefined>;
  const out: SelectedAnswer = { success: answer.success };
  for (const field of fields) out[field] = all[field] ?? null;
  out.success = answer.success;
  if (answer.success === false) out.error = answer.error;
  return out;
}

/** Asking only for "ip" still looks the address up with these. */
const WITHOUT_SELECTED_DATA: EnrichOptions = {
  geolocation: true,
  domain: false,
  company: true,
  network: true,
};

/** The engine options the selected fields need (all when none are named). */
export function optionsFor(fields?: readonly LookupField[]): EnrichOptions {
  if (!fields) return ALL_OPTIONS;
  const needs = (group: FieldGroup) =>
    fieldsOfOption(group).some((f) => fields.includes(f));
  const options: EnrichOptions = {
    geolocation: needs("geolocation"),
    domain: needs("domain"),
    company: needs("company"),
    network: needs("network"),
  };
  if (!Object.values(options).some(Boolean)) return WITHOUT_SELECTED_DATA;
  return options;
}
