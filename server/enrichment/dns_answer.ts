// What the answer to a PTR question says: a name and its TTL, no name (and
// how long that may be kept), or a failure.
// @ts-types="npm:@types/dns-packet@^5.6"
import type packet from "dns-packet";

/** What a PTR query came to. TTLs are in seconds, as the answer gave them. */
export type PtrAnswer =
  /** NOERROR with a PTR record: its name, without the final dot. */
  | { kind: "found"; name: string; ttl: number }
  /** NXDOMAIN, or NOERROR with no PTR record; ttl null: no SOA to say. */
  | { kind: "notFound"; ttl: number | null }
  | { kind: "timeout" }
  /** SERVFAIL, REFUSED, a malformed answer, a failed send. */
  | { kind: "failed" }
  /** The answer did not fit in a datagram (TC): ask again over TCP. */
  | { kind: "truncated" };

const RCODE_NOERROR = 0;
const RCODE_NXDOMAIN = 3;

/** The answer of a response to a PTR question. */
export function interpret(
  message: packet.Packet,
  raw: Uint8Array,
): PtrAnswer {
  if (raw[2] & 0x02) return { kind: "truncated" };
  const rcode = raw[3] & 0x0f;
  if (rcode === RCODE_NOERROR) {
    let ttl = Infinity;
    for (const record of message.answers ?? []) {
      // A CNAME on the way (RFC 2317 delegation) bounds the TTL too.
      if (record.type === "OPT") continue;
      ttl = Math.min(ttl, record.ttl ?? 0);
      if (record.type === "PTR") {
        const name = String(record.data);
        if (name === "" || name === ".") break;
        return {
          kind: "found",
          name: name.replace(/\.$/, ""),
          ttl: Number.isFinite(ttl) ? ttl : 0,
        };
      }
    }
    return { kind: "notFound", ttl: negativeTtl(message) };
  }
  if (rcode === RCODE_NXDOMAIN) {
    return { kind: "notFound", ttl: negativeTtl(message) };
  }
  return { kind: "failed" };
}

/** RFC 2308: the SOA's TTL, bounded by its minimum field; null: no SOA. */
function negativeTtl(message: packet.Packet): number | null {
  for (const record of message.authorities ?? []) {
    if (record.type === "SOA") {
      const minimum = (record.data as { minimum?: number }).minimum ?? 0;
      return Math.min(record.ttl ?? 0, minimum);
    }
  }
  return null;
}
