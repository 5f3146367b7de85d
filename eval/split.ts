// The development / held-out split, fixed before any tuning: FNV-1a of the
// AS number's decimal text; one in three is held out.
export function splitOf(asn: number): "dev" | "heldout" {
  let h = 0x811c9dc5;
  for (const c of String(asn)) {
    h ^= c.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 3 === 0 ? "heldout" : "dev";
}
