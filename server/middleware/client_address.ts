// Who is calling: the connecting address, or with trusted proxies in front,
// the address the nearest of them saw (X-Forwarded-For read from the right,
// so a client cannot choose its own key by sending the header itself).
import type { Context } from "hono";
import { getConnInfo } from "hono/deno";
import ipaddr from "ipaddr.js";

/**
 * The entry of an X-Forwarded-* header the nearest trusted proxy wrote;
 * undefined without trusted proxies or the header.
 */
export function forwardedValue(
  c: Context,
  header: string,
  trustProxy: number,
): string | undefined {
  if (trustProxy <= 0) return undefined;
  const values = (c.req.header(header) ?? "").split(",")
    .map((s) => s.trim()).filter(Boolean);
  if (values.length === 0) return undefined;
  return values[Math.max(0, values.length - trustProxy)];
}

/** The client address of a request; "unknown" without connection info. */
export function clientAddress(c: Context, trustProxy: number): string {
  const forwarded = forwardedValue(c, "x-forwarded-for", trustProxy);
  if (forwarded !== undefined) return forwarded;
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // No Deno.serve info (app.request in tests).
    return "unknown";
  }
}

/**
 * The key one client's limit is kept under: an IPv4 address, or the /64 of
 * an IPv6 address (one host usually holds a whole /64).
 */
export function clientKey(address: string): string {
  const text = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(text)) return address;
  let addr = ipaddr.parse(text);
  if (addr.kind() === "ipv6") {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) addr = v6.toIPv4Address();
    else {return `${
        v6.parts.slice(0, 4).map((p) => p.toString(16)).join(":")
      }::/64`;}
  }
  return addr.toString();
}
