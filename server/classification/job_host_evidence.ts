// What a job's host names say about a network across its rows. One address
// named dsl-1-2-3-4.example.net is evidence for itself (ptr_evidence.ts);
// many such names in one network the classifier found no access evidence
// for say it is an access network, for its rows without a name too. Rows
// are committed in order, so rows before the tally reaches its mark keep
// the network's own answer.
import type { Network } from "../enrichment/compose.ts";
import { ptrHint } from "./ptr_evidence.ts";

/** Dynamic names in one network before they count for its other rows. */
export const DYNAMIC_NAMES_NEEDED = 5;
/** Of its named rows (dynamic or static), the share that must be dynamic. */
const DYNAMIC_SHARE = 0.8;

interface Tally {
  dynamic: number;
  named: number;
  /** The network as its rows now show it (itself until the mark). */
  shown: Network;
}

export class JobHostEvidence {
  #tally = new Map<Network, Tally>();

  /**
   * The network as this row shows it, counting the row's host name (null
   * when it has none) first. `network` is the organisation's own object.
   */
  apply(network: Network, ip: string, hostname: string | null): Network {
    const kind = network.kind;
    // Only a network kept for want of access evidence can change.
    if (
      !kind || kind.filtered || kind.type !== "business" ||
      !kind.reason.startsWith("no access evidence")
    ) {
      return network;
    }
    let tally = this.#tally.get(network);
    if (!tally) {
      tally = { dynamic: 0, named: 0, shown: network };
      this.#tally.set(network, tally);
    }
    const hint = hostname === null ? null : ptrHint(hostname, ip);
    if (hint !== null) {
      tally.named++;
      if (hint === "dynamic") tally.dynamic++;
    }
    const access = tally.dynamic >= DYNAMIC_NAMES_NEEDED &&
      tally.dynamic >= DYNAMIC_SHARE * tally.named;
    if (access && tally.shown === network) {
      tally.shown = {
        ...network,
        company: null,
        kind: {
          type: "consumer_isp",
          filtered: true,
          reason: `job host names: ${tally.dynamic} of ${tally.named} ` +
            `named rows of this network look dynamic`,
          confidence: null,
        },
      };
    } else if (!access) tally.shown = network;
    return tally.shown;
  }
}
