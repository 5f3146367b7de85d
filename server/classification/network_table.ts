// The decision for each organisation of the ASN tables, made once per
// process (on the classifier's loading thread, classifier_load.ts) and
// shared: the HTTP thread and every job thread read a network's decision by
// its table index, instead of each classifying the networks it meets again
// and keeping its own copy of every decision. Decisions for the ASN MMDB files' answers are still made
// where they are met (NetworkClassifier.network, memoised).
import type { AsnTableData } from "../enrichment/asn_table.ts";
import type { Decision } from "./decide.ts";
import { stringAt } from "../enrichment/shared_file.ts";
import {
  NetworkClassifier,
  type NetworkClassifierData,
} from "./network_classifier.ts";

/** Structured-cloneable: a few thousand distinct decisions and an index. */
export interface NetworkTableData {
  /** By ASN table index, in shared memory: its decision in `decisions`. */
  decisionOf: Uint32Array;
  /** The distinct decisions (many networks share one). */
  decisions: Decision[];
}

/** Every table organisation's decision, as NetworkClassifier.network makes it. */
export function classifyTable(
  table: Pick<AsnTableData, "asns" | "orgs">,
  classifier: NetworkClassifierData,
): NetworkTableData {
  const classify = new NetworkClassifier(classifier);
  const { asns, orgs } = table;
  const decisionOf = new Uint32Array(
    new SharedArrayBuffer(asns.length * Uint32Array.BYTES_PER_ELEMENT),
  );
  const decisions: Decision[] = [];
  const numbers = new Map<string, number>();
  for (let i = 0; i < asns.length; i++) {
    const decision = classify.network(asns[i], stringAt(orgs, i));
    const key = JSON.stringify(decision);
    let number = numbers.get(key);
    if (number === undefined) {
      number = decisions.push(decision) - 1;
      numbers.set(key, number);
    }
    decisionOf[i] = number;
  }
  return { decisionOf, decisions };
}
