// A job's registration lookups (RDAP), one per distinct address whose
// network could hide customers, kept by address slot like its host names:
// a row waits in the row window for its registration as for a host name,
// so a slow registry holds only its own rows, and a failure is a null that
// leaves the AS-based answer. The outcomes go to the job at its end.
import type { RegistrationLookups } from "../../shared/wire.ts";
import type { Network } from "../enrichment/compose.ts";
import type { Registration } from "../rdap/rdap_parser.ts";
import type { RegistrationLookup } from "../rdap/registration_lookup.ts";
import { RegistrationNetworks } from "../rdap/registration_network.ts";

/** Per address slot: the registration, or the lookup on its way. */
export type RegistrationSlots = (
  | Registration
  | null
  | Promise<Registration | null>
  | undefined
)[];

export class JobRegistrations {
  readonly #lookup: RegistrationLookup;
  readonly #networks: RegistrationNetworks;
  /** Replaced (not emptied) when the address numbering starts over. */
  slots: RegistrationSlots = [];

  constructor(lookup: RegistrationLookup, isCarrier: (asn: number) => boolean) {
    this.#lookup = lookup;
    this.#networks = new RegistrationNetworks(isCarrier);
  }

  /** Starts the lookup of a new slot's address when its network needs one. */
  start(slot: number, ip: string, network: Network | null): void {
    if (!this.#networks.worthAsking(network)) return;
    const list = this.slots; // a fresh list after a start-over
    const pending = this.#lookup.lookup(ip).catch(() => null);
    list[slot] = pending;
    pending.then((registration) => list[slot] = registration);
  }

  /** The network a committed row shows, its registration (if any) applied. */
  apply(network: Network, slot: number): Network {
    const registration = this.slots[slot];
    if (!registration || registration instanceof Promise) return network;
    return this.#networks.apply(network, registration);
  }

  /** The run's outcomes as the job counts them. */
  outcomes(): RegistrationLookups {
    const o = this.#lookup.outcomes;
    return {
      answered: o.answered + o.notFound,
      cached: o.cached,
      failed: o.timedOut + o.failed + o.skipped,
    };
  }
}
