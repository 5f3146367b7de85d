// Builds the AS features on a thread of its own. The build (a server's first
// start on a database version) makes a few hundred MB of short-lived objects,
// and a V8 heap that grew to hold them stays that size: the HTTP thread's
// would keep that memory for the server's life. A worker's memory goes back
// to the system when it ends, given the server's V8 flags
// (server/v8_flags.ts).
import type { AsnTableData } from "../enrichment/asn_table.ts";
import type { AsFeatureColumns } from "./as_features.ts";
import { runOnThread } from "../one_shot_thread.ts";

/** What the build thread is sent: the tables, the city databases' bytes. */
export interface FeatureBuildInput {
  table: AsnTableData;
  geo: Uint8Array[];
}

/** buildAsFeatures over these tables and city databases, on a worker. */
export function buildAsFeaturesInWorker(
  table: AsnTableData,
  geo: Uint8Array[],
): Promise<AsFeatureColumns> {
  return runOnThread<FeatureBuildInput, AsFeatureColumns>(
    new URL("./feature_build_worker.ts", import.meta.url),
    "as-features",
    { table, geo },
    "building the AS features",
  );
}
