// What a reverse-DNS host name says about the line behind an address.
// Access operators name their pools after the technology (dsl, cable, ftth)
// or the address itself (1-2-3-4.pool.example.net); business lines get
// static, biz or a role name (mail, vpn, gw).

export type PtrHint = "dynamic" | "static" | null;

// A cue is a whole part between dots and dashes, digits allowed after it
// ("dsl12", "pool-3"); "poolside" or "cablevision-hq" do not count.
const words = (text: string) => text.trim().split(/\s+/);
const DYNAMIC = words(`
  pool dyn dynamic dhcp dsl adsl vdsl xdsl cable cpe ftth fttb fttx cust
  customer client clients subscriber res resi residential home broadband
  bb ppp pppoe dial dialup mobile wireless lte 3g 4g 5g cgn nat user users
  host
`);
const STATIC = words(`
  static biz business corp corporate enterprise mail smtp mx vpn gw
  gateway fw firewall office www ns ns1 ns2
`);

/** The address's octets or hex groups written into the name. */
function encodesAddress(name: string, ip: string | null): boolean {
  if (
    /(?:^|[.-])\d{1,3}[-.]\d{1,3}[-.]\d{1,3}[-.]\d{1,3}(?:[.-]|$)/.test(name)
  ) {
    return true;
  }
  if (/(?:^|[.-])[a-z]?[0-9a-f]{8}(?:[.-]|$)/.test(name) && /\d/.test(name)) {
    return true;
  }
  if (!ip || !ip.includes(".")) return false;
  const octets = ip.split(".");
  // reversed (4-3-2-1) or run together (001002003004)
  const padded = octets.map((o) => o.padStart(3, "0")).join("");
  return name.includes(octets.slice().reverse().join("-")) ||
    name.includes(padded);
}

// One regular expression per set of cues.
const cueRegex = (cues: string[]) =>
  new RegExp(`(?:^|[.-])(?:${cues.join("|")})\\d*(?=[.-]|$)`);
const STATIC_CUE = cueRegex(STATIC);
const DYNAMIC_CUE = cueRegex(DYNAMIC);

/**
 * "static" when the name says business or static, "dynamic" when it says
 * pool, a residential technology or carries the address, null otherwise.
 * Static wins: "static-1-2-3-4.dsl.example" is a fixed business line.
 */
export function ptrHint(
  hostname: string | null,
  ip: string | null = null,
): PtrHint {
  if (!hostname) return null;
  const name = hostname.toLowerCase().replace(/\.$/, "");
  // The registrable domain (last two labels) names the operator, not the line.
  const last = name.lastIndexOf(".", name.lastIndexOf(".") - 1);
  const host = last < 0 ? "" : name.slice(0, last);
  if (STATIC_CUE.test(host)) return "static";
  if (DYNAMIC_CUE.test(host)) return "dynamic";
  if (encodesAddress(name, ip)) return "dynamic";
  return null;
}
