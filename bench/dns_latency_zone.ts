// Which addresses the latency responder answers with a name, NXDOMAIN or
// nothing: decided by a hash of the address, so the benchmark knows the
// answerable ones without asking. 60% named, 35% NXDOMAIN, 5% silent.

export type AddressKind = "named" | "nxdomain" | "silent";

/** FNV-1a of the address text. */
function hash(ip: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < ip.length; i++) {
    h = Math.imul(h ^ ip.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

export function addressKind(ip: string): AddressKind {
  const bucket = hash(ip) % 100;
  if (bucket < 5) return "silent";
  if (bucket < 40) return "nxdomain";
  return "named";
}

export function hostFor(ip: string): string {
  return `host-${ip.replaceAll(".", "-")}.latency.example.com`;
}
