// Who holds an address and what kind of network it is, read from the richer
// databases a user may own and give through ASN_DB. Provider side only: the
// classification decides what to make of these fields.
//
// Fields read, by product (record shapes as the vendors publish them):
//
// - MaxMind GeoLite2/GeoIP2 ASN: asn, asOrg from autonomous_system_number,
//   autonomous_system_organization.
// - MaxMind GeoIP2 ISP: the same, and company from organization, isp from isp.
// - MaxMind GeoIP2 Connection-Type: connectionType from connection_type
//   ("Cable/DSL", "Cellular", "Corporate", "Satellite", "Dialup").
// - MaxMind GeoIP2 Enterprise: all of the above under traits, and userType
//   from traits.user_type ("business", "residential", "hosting", ...).
// - IPinfo ASN: asn from asn ("AS15169"), asOrg from name, asType from type.
// - IPinfo IP to Company: company from name, companyType from type, asn from
//   asn, asOrg from as_name, asType from as_type.
// - IPinfo joined files: company_name and company_type where they are named
//   so.
import { MmdbError } from "./mmdb_database.ts";
import type { MmdbValue } from "./mmdb_format.ts";

export interface NetworkFields {
  asn: number | null;
  /** The organisation the AS is registered to. */
  asOrg: string | null;
  /** Who uses the address (a customer inside a carrier's AS, say). */
  company: string | null;
  isp: string | null;
  /** MaxMind: "Cable/DSL", "Cellular", "Corporate", "Satellite", "Dialup". */
  connectionType: string | null;
  /** MaxMind Enterprise: "business", "residential", "hosting", ... */
  userType: string | null;
  /** IPinfo: "isp", "business", "hosting", "education", "government". */
  companyType: string | null;
  asType: string | null;
}

type Fields = Record<string, MmdbValue>;

function isMap(value: MmdbValue | undefined): value is Fields {
  return typeof value === "object" && value !== null &&
    !Array.isArray(value) && !(value instanceof Uint8Array);
}

function text(map: Fields, key: string): string | null {
  const value = map[key];
  if (value === undefined || value === "") return null;
  if (typeof value !== "string") throw new MmdbError(`${key} is not text`);
  return value;
}

/** MaxMind's integer, or IPinfo's "AS15169" text. */
function asNumber(map: Fields, key: string): number | null {
  const value = map[key];
  if (value === undefined || value === "") return null;
  const n = typeof value === "string"
    ? Number(value.replace(/^AS/i, ""))
    : typeof value === "number"
    ? value
    : NaN;
  if (!Number.isInteger(n) || n <= 0 || n > 0xffffffff) {
    throw new MmdbError(`${key} ${String(value)} is not an AS number`);
  }
  return n;
}

/**
 * The network fields of one record, whichever product wrote it. Throws
 * MmdbError when a field has a type its product never writes.
 */
export function readNetworkFields(record: MmdbValue): NetworkFields {
  if (!isMap(record)) throw new MmdbError("the record is not a map");
  // MaxMind Enterprise (and City files with traits) nest them.
  const traits = isMap(record.traits) ? record.traits : record;
  if (
    "autonomous_system_number" in traits || "isp" in traits ||
    "connection_type" in traits || "user_type" in traits ||
    "organization" in traits
  ) {
    return {
      asn: asNumber(traits, "autonomous_system_number"),
      asOrg: text(traits, "autonomous_system_organization"),
      company: text(traits, "organization"),
      isp: text(traits, "isp"),
      connectionType: text(traits, "connection_type"),
      userType: text(traits, "user_type"),
      companyType: null,
      asType: null,
    };
  }
  // IPinfo: a company file has the AS under as_*; an ASN file has it bare.
  const companyFile = "as_name" in record || "company_name" in record;
  return {
    asn: asNumber(record, "asn"),
    asOrg: companyFile ? text(record, "as_name") : text(record, "name"),
    company: text(record, "company_name") ??
      (companyFile ? text(record, "name") : null),
    isp: null,
    connectionType: null,
    userType: null,
    companyType: text(record, "company_type") ??
      (companyFile ? text(record, "type") : null),
    asType: companyFile ? text(record, "as_type") : text(record, "type"),
  };
}
