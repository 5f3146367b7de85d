// A row's network with its registration data applied: the four registration
// columns, and, when the block is registered to a customer of the announcing
// AS (registrantOverride), that customer as the company, kept as a business;
// a kept row whose block's name or kind says home or mobile subscribers
// (registrationAccess), filtered.
// One object per network and registration, so a chunk's rows refer to
// each variant by one number (jobs/row_results.ts numbers networks by identity).
import type { Network } from "../enrichment/compose.ts";
import {
  type AsAnswer,
  couldHideCustomers,
  registrantOverride,
} from "./registrant_override.ts";
import { type Registration, registrationColumns } from "./rdap_parser.ts";
import { registrationAccess } from "./registration_access.ts";

const VARIANT_LIMIT = 50_000;

export class RegistrationNetworks {
  readonly #hides: (row: AsAnswer) => boolean;
  #variants = new Map<Network, Map<string, Network>>();

  /** `isCarrier`: AS numbers whose business rows may hide customers too. */
  constructor(isCarrier: (asn: number) => boolean) {
    this.#hides = couldHideCustomers(isCarrier);
  }

  /** Whether a row of this network is worth a registration query. */
  worthAsking(network: Network | null): boolean {
    return network !== null && network.kind !== null &&
      this.#hides(asAnswer(network));
  }

  /** The network as this row shows it with `registration` (maybe none). */
  apply(network: Network, registration: Registration | null): Network {
    if (!registration) return network;
    let variants = this.#variants.get(network);
    if (!variants) {
      if (this.#variants.size >= VARIANT_LIMIT) this.#variants.clear();
      this.#variants.set(network, variants = new Map());
    }
    const key = `${registration.network}\t${registration.org}\t` +
      `${registration.country}\t${registration.abuseEmail}\t` +
      `${registration.name}\t${registration.kind}`;
    let variant = variants.get(key);
    if (variant) return variant;
    const override = registrantOverride(
      registration,
      asAnswer(network),
      this.#hides,
    );
    const access = override || network.kind?.filtered
      ? null
      : registrationAccess(registration);
    variant = {
      ...network,
      registration: registrationColumns(registration),
      ...(override && {
        company: override.company,
        kind: {
          type: "business",
          filtered: false,
          reason: override.reason,
          confidence: null,
        },
      }),
      ...(access && {
        kind: {
          type: access.type,
          filtered: true,
          reason: `registration: block "${access.said}"`,
          confidence: null,
        },
      }),
    };
    variants.set(key, variant);
    return variant;
  }
}

function asAnswer(network: Network): AsAnswer {
  return {
    asn: network.asn,
    org: network.org || null,
    networkType: network.kind?.type ?? null,
  };
}

/**
 * For lookups: the network with its registration applied, asking only
 * for networks that could hide customers; other networks carry an empty
 * registration so the four fields are present (null) when asked for.
 */
export function registrationAdjust(
  networks: RegistrationNetworks,
  lookup: { lookup(ip: string): Promise<Registration | null> },
): (ip: string, network: Network) => Promise<Network> {
  return async (ip, network) => {
    if (!networks.worthAsking(network)) return network;
    return networks.apply(network, await lookup.lookup(ip));
  };
}
