// Which text the lookup routes accept as an address.
import { parseIp } from "../enrichment/ip_input.ts";

/**
 * Text that reads as an IP address, public or not: what the engine takes.
 * A private or reserved address is an address (its answer says why it has
 * no data); only text that parses as no address at all is refused.
 */
export function readsAsIpAddress(text: string): boolean {
  const parsed = parseIp(text);
  return parsed.ok || parsed.failure.kind !== "invalid";
}
