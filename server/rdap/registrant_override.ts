// When registration data changes a row's answer: a block registered to a
// customer of the network that announces it (a hotel chain inside a
// carrier) names that customer as the company and keeps the row, which
// the AS alone would have called a consumer address. Only networks that
// could hide customers are worth a query.
import type { Registration } from "./rdap_parser.ts";

/** What a row knew before registration data: its AS and network type. */
export interface AsAnswer {
  asn: number | null;
  /** The AS organisation's name, as the ASN database gives it. */
  org: string | null;
  networkType: string | null;
}

export interface RegistrantOverride {
  company: string;
  /** The row is not treated as a consumer address. */
  keep: true;
  reason: string;
}

/**
 * Access and carrier networks rent blocks to businesses; an organisation's
 * own AS (hosting, education, government, most businesses) does not.
 * `isCarrier` says which AS numbers are transit/business carriers (the
 * curated transit list): their "business" rows are worth a query too.
 */
export function couldHideCustomers(
  isCarrier: (asn: number) => boolean = () => false,
): (row: AsAnswer) => boolean {
  return (row) =>
    row.networkType === "consumer_isp" || row.networkType === "mobile" ||
    (row.networkType === "business" && row.asn !== null && isCarrier(row.asn));
}

// Words that say what kind of company, not which one.
const LEGAL_FORMS = new Set(
  ("inc incorporated llc llp lp ltd limited corp corporation co company plc " +
    "gmbh mbh ag kg ohg ug se sa sas sarl srl spa sl bv nv oy oyj ab asa as aps " +
    "kk pty pte bhd sdn tbk jsc pjsc ojsc zao ooo ao sro doo kft zrt " +
    "the of and de du la le del et")
    .split(" "),
);
const GENERIC_WORDS = new Set(
  ("internet services service communications communication telecom " +
    "telecommunications telecommunication telecommunicacoes network networks " +
    "net broadband cable wireless mobile online holdings holding group global " +
    "international enterprises enterprise solutions technologies technology " +
    "systems data datacenter isp operations america americas europe")
    .split(" "),
);

/** Registrant names that stand for "someone", not a company. */
const PLACEHOLDERS =
  /^(private (customer|residence|person|user)s?|customer|redacted.*|data protected.*|not disclosed|n\/?a|none|unknown|individual)$/i;

/**
 * The name's distinctive words: lower case, accents and punctuation gone
 * ("AT&T" -> "att"), legal forms, generic words and bare numbers dropped
 * (AS names such as "COMCAST-7922" carry their number).
 */
export function nameTokens(name: string): string[] {
  const plain = name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[&.'’]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ");
  return plain.split(" ").map((word) => word.replace(/\d+$/, ""))
    .filter((word) =>
      word.length > 1 && !LEGAL_FORMS.has(word) && !GENERIC_WORDS.has(word)
    );
}

/**
 * Same organisation when a distinctive word is shared, or one name run
 * together starts the other's ("ATTINTERNET" and "AT&T Corp").
 */
export function sameOrganisation(a: string, b: string): boolean {
  const ta = nameTokens(a);
  const tb = nameTokens(b);
  if (ta.length === 0 || tb.length === 0) return false;
  const set = new Set(tb);
  if (ta.some((word) => set.has(word))) return true;
  const ja = ta.join("");
  const jb = tb.join("");
  const shorter = ja.length <= jb.length ? ja : jb;
  const longer = ja.length <= jb.length ? jb : ja;
  return shorter.length >= 3 && longer.startsWith(shorter);
}

/**
 * The change registration data makes to a row, or null for none: the block
 * must be registered to a named registrant (not only a network name), who
 * is neither the AS organisation nor a placeholder, inside an AS that
 * could hide customers.
 */
export function registrantOverride(
  registration: Registration | null,
  row: AsAnswer,
  hidesCustomers: (row: AsAnswer) => boolean = couldHideCustomers(),
): RegistrantOverride | null {
  if (!registration?.orgIsRegistrant || !registration.org) return null;
  if (!hidesCustomers(row)) return null;
  const registrant = registration.org;
  if (PLACEHOLDERS.test(registrant.trim())) return null;
  if (nameTokens(registrant).length === 0) return null;
  if (row.org && sameOrganisation(registrant, row.org)) return null;
  const inside = row.asn !== null ? ` inside AS${row.asn}` : "";
  return {
    company: registrant,
    keep: true,
    reason: `registered to ${registrant}${inside}`,
  };
}
