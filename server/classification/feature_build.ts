// Builds the AS features on a thread of its own. The build (a server's first
// start on a database version) makes a few hundred MB of short-lived objects,
// and a V8 heap that grew to hold them stays that size: the HTTP thread's
// would keep that memory for the server's life. A worker's memory goes back to the system when it ends,
// given the server's V8 flags (server/v8_flags.ts).
import type { AsnTableData } from "../enrichment/asn_table.ts";
import type { AsFeatureColumns } from "./as_features.ts";

/** What the build thread is sent: the tables, the city databases' bytes. */
export interface FeatureBuildInput {
  table: AsnTableData;
  geo: Uint8Array[];
}

export type FeatureBuildOutput =
  | { columns: AsFeatureColumns }
  | { error: string };

/** buildAsFeatures over these tables and city databases, on a worker. */
export function buildAsFeaturesInWorker(
  table: AsnTableData,
  geo: Uint8Array[],
): Promise<AsFeatureColumns> {
  const worker = new Worker(
    new URL("./feature_build_worker.ts", import.meta.url).href,
    { type: "module", name: "as-features" },
  );
  const { promise, resolve, reject } = Promise.withResolvers<
    AsFeatureColumns
  >();
  const failed = (message: string) =>
    reject(new Error(`building the AS features failed: ${message}`));
  worker.onmessage = (event: MessageEvent<FeatureBuildOutput>) => {
    const output = event.data;
    if ("columns" in output) resolve(output.columns);
    else failed(output.error);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    failed(event.message);
  };
  worker.postMessage({ table, geo } satisfies FeatureBuildInput);
  return promise.finally(() => worker.terminate());
}
