// Loads the classifier on a thread of its own: its AS features (read from
// DATA_DIR's cache, or built from the databases on a server's first start
// on a database version), its lists and overrides, then every ASN table
// network's decision (network_table.ts). The features file is parsed and
// the build makes a few hundred MB of short-lived objects; a V8 heap that
// grew to hold them stays that size, so on the HTTP thread the server would
// keep that memory for its life. A worker's memory goes back to the system
// when it ends, given the server's V8 flags (server/v8_flags.ts). What
// comes back is in shared memory, but for the lists and the decisions.
import type { AsnTableData } from "../enrichment/asn_table.ts";
import type { MmdbFile } from "../enrichment/mmdb_database.ts";
import type {
  ClassifierSources,
  NetworkClassifierData,
} from "./network_classifier.ts";
import type { NetworkTableData } from "./network_table.ts";
import { runOnThread } from "../one_shot_thread.ts";

/**
 * What the loading thread is sent: the sources, and the loaded tables and
 * city databases to build the features from.
 */
export type ClassifierLoadInput = Omit<ClassifierSources, "buildFeatures"> & {
  table: AsnTableData;
  geo: MmdbFile[];
};

export interface LoadedClassifier {
  classifier: NetworkClassifierData;
  networks: NetworkTableData;
}

/** The classifier's data and the table's decisions, loaded on a worker. */
export function loadClassifierOnThread(
  input: ClassifierLoadInput,
): Promise<LoadedClassifier> {
  return runOnThread(
    new URL("./classifier_load_worker.ts", import.meta.url),
    "classifier",
    input,
    "loading the network classifier",
  );
}
