// Which engine work a selection of answer fields needs (BigQuery's
// userDefinedContext.fields): no reverse DNS unless a DNS field is asked for.
import {
  ENRICHMENT_FIELDS,
  type FieldGroup,
  fieldsOfGroup,
} from "../../shared/enrichment_fields.ts";
import type { LookupField } from "../../shared/wire.ts";
import type { EnrichOptions } from "../enrichment/types.ts";

const REGISTRATION: readonly string[] = fieldsOfGroup("registration");

/** Fields a BigQuery caller may select. */
export const LOOKUP_FIELDS: readonly LookupField[] = [
  "ip",
  // Registration data is online and opt-in: not a BigQuery field.
  ...ENRICHMENT_FIELDS.filter((f) => !REGISTRATION.includes(f)),
  "ispFiltered",
];

/** The fields each option produces; ispFiltered comes with the company. */
function fieldsOfOption(group: FieldGroup): LookupField[] {
  const fields: LookupField[] = fieldsOfGroup(group);
  return group === "company" ? [...fields, "ispFiltered"] : fields;
}

/** Asking only for "ip" still looks the address up with these. */
const WITHOUT_SELECTED_DATA: EnrichOptions = {
  geolocation: true,
  domain: false,
  company: true,
  network: true,
};

/** The engine options the selected fields need. */
export function optionsFor(fields: readonly LookupField[]): EnrichOptions {
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
