// Reads an RDAP "ip network" answer (RFC 9083 section 5.4) into the few
// facts a row carries: who the block is registered to, the block itself,
// its country and where to report abuse. Registries differ in what they
// fill in, so every member is optional and wrong types are ignored.
import { type Span, spanOf, spanToCidrs } from "./ip_span.ts";

export interface Registration {
  /** The registrant entity's vCard "fn", else the network's name. */
  org: string | null;
  /** True when `org` is a registrant's name, not the network's handle-like name. */
  orgIsRegistrant: boolean;
  /** The network's "name" (often a handle such as NET-RTR-1). */
  name: string | null;
  handle: string | null;
  /**
   * The registry's kind of assignment ("type": ASSIGNED PA, REASSIGNED,
   * ALLOCATED PORTABLE...); absent in answers cached before it was kept.
   */
  kind?: string | null;
  /** CIDR text; several blocks joined with ", " when the range is not one block. */
  network: string;
  startAddress: string;
  endAddress: string;
  /** Upper-case two-letter code, as the registry gives it. */
  country: string | null;
  abuseEmail: string | null;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : null;

const list = (value: unknown): unknown[] => Array.isArray(value) ? value : [];

/**
 * The value of the first vCard property `name` in a jCard (RFC 7095):
 * ["vcard", [[name, params, type, value...], ...]].
 */
export function vcardValue(entity: Json, name: string): string | null {
  const vcard = list(entity.vcardArray);
  if (vcard[0] !== "vcard") return null;
  for (const property of list(vcard[1])) {
    const parts = list(property);
    if (parts[0] !== name) continue;
    const value = parts[3];
    // Structured values (e.g. a multi-part fn) come as arrays of text.
    if (Array.isArray(value)) {
      const joined = value.filter((v) => typeof v === "string").join(" ");
      if (text(joined)) return text(joined);
    } else if (text(value)) {
      return text(value);
    }
  }
  return null;
}

interface FoundEntity {
  entity: Json;
  depth: number;
}

/** Every entity and nested entity, breadth first (shallowest first). */
function allEntities(network: Json): FoundEntity[] {
  const found: FoundEntity[] = [];
  let level = list(network.entities).filter(isObject);
  // Registries nest only a few levels; the bound guards against cycles
  // a hostile answer cannot make in JSON anyway, and against huge answers.
  for (let depth = 0; level.length > 0 && depth < 5; depth++) {
    const next: Json[] = [];
    for (const entity of level) {
      found.push({ entity, depth });
      next.push(...list(entity.entities).filter(isObject));
    }
    level = next;
  }
  return found;
}

const hasRole = (entity: Json, role: string) =>
  list(entity.roles).some((r) => typeof r === "string" && r === role);

/** The CIDR blocks: cidr0_cidrs when given and sane, else from start-end. */
function networkCidrs(network: Json, span: Span): string[] {
  const given = list(network.cidr0_cidrs).filter(isObject).flatMap((cidr) => {
    const prefix = text(cidr.v4prefix) ?? text(cidr.v6prefix);
    const length = Number(cidr.length);
    return prefix && Number.isInteger(length) ? [`${prefix}/${length}`] : [];
  });
  return given.length > 0 ? given : spanToCidrs(span);
}

export class RdapFormatError extends Error {}

/** Parses an "ip network" object; throws RdapFormatError when it is not one. */
export function parseIpNetwork(body: unknown): Registration {
  if (!isObject(body)) throw new RdapFormatError("the answer is not an object");
  const startAddress = text(body.startAddress);
  const endAddress = text(body.endAddress);
  if (!startAddress || !endAddress) {
    throw new RdapFormatError("the answer has no startAddress/endAddress");
  }
  const span = spanOf(startAddress, endAddress);
  if (!span) {
    throw new RdapFormatError(
      `the answer's range ${startAddress} - ${endAddress} is not valid`,
    );
  }
  const entities = allEntities(body);
  const registrant = entities.find(({ entity }) =>
    hasRole(entity, "registrant") && vcardValue(entity, "fn")
  );
  const abuse = entities.find(({ entity }) =>
    hasRole(entity, "abuse") && vcardValue(entity, "email")
  );
  const name = text(body.name);
  const registrantName = registrant
    ? vcardValue(registrant.entity, "fn")
    : null;
  const country = text(body.country);
  return {
    org: registrantName ?? name,
    orgIsRegistrant: registrantName !== null,
    name,
    handle: text(body.handle),
    kind: text(body.type),
    network: networkCidrs(body, span).join(", "),
    startAddress,
    endAddress,
    country: country ? country.toUpperCase() : null,
    abuseEmail: abuse ? vcardValue(abuse.entity, "email") : null,
  };
}

/** The range a parsed registration covers. */
export function registrationSpan(registration: Registration): Span {
  return spanOf(registration.startAddress, registration.endAddress)!;
}

/** The row's registration columns (null when there is no registration). */
export function registrationColumns(registration: Registration | null) {
  return {
    registered_org: registration?.org ?? null,
    registered_network: registration?.network ?? null,
    registered_country: registration?.country ?? null,
    abuse_email: registration?.abuseEmail ?? null,
  };
}
