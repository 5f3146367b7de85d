// A job's choice for rows whose classification the model doubts (their
// confidence below even odds): keep them in the download whatever their
// type, or filter them out whatever their type. Answers nothing measures
// (confidence null: a host name's cue, a registrant) are left as they are.
import type { Network } from "../enrichment/compose.ts";
import { LOW_CONFIDENCE_BELOW, type LowConfidence } from "../../shared/wire.ts";

export class LowConfidenceRows {
  readonly #filter: boolean;
  /** The variant of each network this choice changed, made once. */
  #variants = new WeakMap<Network, Network>();

  constructor(choice: LowConfidence) {
    this.#filter = choice === "filter";
  }

  /** The network as the job's choice shows it (itself when unchanged). */
  apply(network: Network): Network {
    const kind = network.kind;
    if (
      !kind || kind.confidence === null ||
      kind.confidence >= LOW_CONFIDENCE_BELOW || kind.filtered === this.#filter
    ) {
      return network;
    }
    let variant = this.#variants.get(network);
    if (!variant) {
      const done = this.#filter ? "filtered" : "kept";
      variant = {
        ...network,
        kind: {
          ...kind,
          filtered: this.#filter,
          reason: `low confidence, ${done} (${kind.reason})`,
        },
      };
      this.#variants.set(network, variant);
    }
    return variant;
  }
}
