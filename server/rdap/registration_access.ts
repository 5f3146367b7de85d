// What a block's registration says of its users: a network name or kind
// with access words (NET-DSL-POOL-3, BROADBAND-CUSTOMERS, MOBILE-LTE,
// CGNAT-1, "DYNAMIC") marks a block of home or mobile subscribers, evidence
// for that block even where the AS looked like a business.
import type { NetworkType } from "../../shared/network_types.ts";
import type { Registration } from "./rdap_parser.ts";

// Words between separators (-, _, space, digits), case-insensitive.
const MOBILE = /^(mobile|mob|gprs|lte|umts|cellular|3g|4g|5g)$/;
const ACCESS =
  /^(dynamic|dyn|dynip|broadband|bb|dsl|adsl|vdsl|xdsl|ftth|fttx|fttp|fttb|catv|cgn|cgnat|residential|resi|subscribers?|pppoe|dhcp|pools?)$/;

export interface RegistrationAccess {
  type: Extract<NetworkType, "consumer_isp" | "mobile">;
  /** The name or kind that said so. */
  said: string;
}

/** An access block by its registration, or null when nothing says so. */
export function registrationAccess(
  registration: Registration,
): RegistrationAccess | null {
  for (const said of [registration.name, registration.kind]) {
    if (!said) continue;
    const words = said.toLowerCase().split(/[^a-z0-9]+|(?<=[a-z])(?=\d)/);
    if (words.some((w) => MOBILE.test(w))) return { type: "mobile", said };
    if (words.some((w) => ACCESS.test(w))) {
      return { type: "consumer_isp", said };
    }
  }
  return null;
}
