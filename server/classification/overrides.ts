// Decisions the server's operator forces, one per line of a file:
//   ASN -> type     64500 -> business
//   CIDR -> type    203.0.113.0/24 -> consumer
//   org:/re/ -> t   org:/\bCounty\b/i -> government
// The first matching line wins and is named in the reason ("override: line 12").
// Also the per-job "always keep" list: AS numbers or CIDRs.
import {
  addressWords,
  ipv4ToNumber,
  ipv6ToWords,
} from "../enrichment/ip_input.ts";
import type { NetworkKind } from "./decide.ts";

const TYPES: Record<string, NetworkKind> = {
  consumer: "consumer_isp",
  consumer_isp: "consumer_isp",
  mobile: "mobile",
  hosting: "hosting",
  business: "business",
  education: "education",
  government: "government",
};

export const OVERRIDES_TEMPLATE =
  `# Network classification overrides, applied before any other evidence.
# One rule per line: MATCH -> TYPE
#   MATCH: an AS number (64500 or AS64500), a CIDR (203.0.113.0/24,
#          2001:db8::/32) or org:/regex/flags matched against the AS name
#   TYPE:  consumer | mobile | hosting | business | education | government
# The first matching line decides; the reason column names it.
# Examples:
# 64500 -> business
# 203.0.113.0/24 -> consumer
# org:/\\bSchool District\\b/i -> education
`;

interface Cidr {
  version: 4 | 6;
  /** Address as 32-bit words (one for IPv4) and prefix length. */
  words: number[];
  bits: number;
}

export interface OverrideRule {
  line: number;
  type: NetworkKind;
  asn?: number;
  cidr?: Cidr;
  org?: RegExp;
}

export class OverrideError extends Error {}

export function parseCidr(text: string): Cidr | null {
  const m = /^([0-9a-fA-F:.]+)\/(\d{1,3})$/.exec(text.trim());
  if (!m) return null;
  const bits = Number(m[2]);
  try {
    if (m[1].includes(":")) {
      return bits <= 128
        ? { version: 6, words: ipv6ToWords(m[1]), bits }
        : null;
    }
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(m[1]) || bits > 32) return null;
    return { version: 4, words: [ipv4ToNumber(m[1])], bits };
  } catch {
    return null;
  }
}

export function cidrContains(cidr: Cidr, ip: string): boolean {
  const v6 = ip.includes(":");
  if ((cidr.version === 6) !== v6) return false;
  const words = addressWords(ip, v6 ? 6 : 4);
  let left = cidr.bits;
  for (let i = 0; i < words.length && left > 0; i++) {
    const n = Math.min(32, left);
    const mask = n === 32 ? 0xffffffff : ~(0xffffffff >>> n) >>> 0;
    if (((words[i] ^ cidr.words[i]) & mask) >>> 0 !== 0) return false;
    left -= n;
  }
  return true;
}

function parseAsn(text: string): number | null {
  const m = /^(?:AS)?(\d{1,10})$/i.exec(text.trim());
  return m && Number(m[1]) > 0 && Number(m[1]) < 2 ** 32 ? Number(m[1]) : null;
}

/** Rules of an overrides file; OverrideError names every bad line. */
export function parseOverrides(text: string): OverrideRule[] {
  const rules: OverrideRule[] = [];
  const errors: string[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    const body = raw.trim();
    if (!body || body.startsWith("#")) return;
    const arrow = body.lastIndexOf("->");
    if (arrow < 0) {
      errors.push(`line ${line}: expected "MATCH -> TYPE", got "${body}"`);
      return;
    }
    const match = body.slice(0, arrow).trim();
    const typeText = body.slice(arrow + 2).trim().toLowerCase();
    const type = TYPES[typeText];
    if (!type) {
      errors.push(
        `line ${line}: unknown type "${typeText}" (consumer, mobile, hosting, business, education, government)`,
      );
      return;
    }
    if (match.startsWith("org:")) {
      const re = /^org:\/(.+)\/([a-z]*)$/.exec(match);
      try {
        if (!re) throw new Error("write it as org:/regex/flags");
        rules.push({ line, type, org: new RegExp(re[1], re[2]) });
      } catch (error) {
        errors.push(
          `line ${line}: bad org pattern: ${(error as Error).message}`,
        );
      }
      return;
    }
    const asn = parseAsn(match);
    if (asn !== null) return void rules.push({ line, type, asn });
    const cidr = parseCidr(match);
    if (cidr) return void rules.push({ line, type, cidr });
    errors.push(
      `line ${line}: "${match}" is not an AS number, a CIDR or org:/regex/`,
    );
  });
  if (errors.length) throw new OverrideError(errors.join("\n"));
  return rules;
}

/** The first rule matching this address, AS number and AS name. */
export function matchOverride(
  rules: OverrideRule[],
  ip: string,
  asn: number | null,
  org: string | null,
): OverrideRule | null {
  for (const rule of rules) {
    if (rule.asn !== undefined && rule.asn === asn) return rule;
    if (rule.cidr && cidrContains(rule.cidr, ip)) return rule;
    if (rule.org && org && rule.org.test(org)) return rule;
  }
  return null;
}

/**
 * The overrides file at `path`, created with commented examples when
 * missing (CLASSIFY_OVERRIDES, default DATA_DIR/overrides.txt).
 */
export async function loadOverrides(path: string): Promise<OverrideRule[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    const dir = path.slice(0, path.lastIndexOf("/"));
    if (dir) await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(path, OVERRIDES_TEMPLATE);
    text = OVERRIDES_TEMPLATE;
  }
  try {
    return parseOverrides(text);
  } catch (error) {
    if (error instanceof OverrideError) {
      // One line, naming the file and each bad line: start-up stops on it.
      const lines = error.message.split("\n").join("; ");
      throw new OverrideError(`overrides file ${path}: ${lines}`);
    }
    throw error;
  }
}

export interface KeepList {
  asns: Set<number>;
  cidrs: Cidr[];
}

/** A job's "always keep" box: AS numbers or CIDRs, split by commas, spaces or lines. */
export function parseKeepList(text: string): KeepList {
  const keep: KeepList = { asns: new Set(), cidrs: [] };
  const bad: string[] = [];
  for (const item of text.split(/[\s,;]+/).filter(Boolean)) {
    const asn = parseAsn(item);
    const cidr = asn === null ? parseCidr(item) : null;
    if (asn !== null) keep.asns.add(asn);
    else if (cidr) keep.cidrs.push(cidr);
    else bad.push(item);
  }
  if (bad.length) {
    throw new OverrideError(
      `not an AS number or CIDR: ${bad.slice(0, 5).join(", ")}`,
    );
  }
  return keep;
}

export function keeps(list: KeepList, ip: string, asn: number | null): boolean {
  return (asn !== null && list.asns.has(asn)) ||
    list.cidrs.some((c) => cidrContains(c, ip));
}
