// Reads the ASN tables on a thread of its own: parsing the CSVs is a second
// or so of work that must not stall the HTTP thread while a running server
// switches to new data, and its short-lived objects die with the thread.
// The tables come back in shared memory (asn_table.ts), so nothing is
// copied but the organisations' names.
import type { AsnTableData } from "./asn_table.ts";

export type AsnLoadOutput = { table: AsnTableData } | { error: string };

/** loadAsnTable(paths) on a worker. */
export function loadAsnTableOnThread(paths: string[]): Promise<AsnTableData> {
  const worker = new Worker(
    new URL("./asn_load_worker.ts", import.meta.url).href,
    { type: "module", name: "asn-tables" },
  );
  const { promise, resolve, reject } = Promise.withResolvers<AsnTableData>();
  worker.onmessage = (event: MessageEvent<AsnLoadOutput>) => {
    const output = event.data;
    if ("table" in output) resolve(output.table);
    else reject(new Error(output.error));
  };
  worker.onerror = (event) => {
    event.preventDefault();
    reject(new Error(`reading the ASN tables failed: ${event.message}`));
  };
  worker.postMessage(paths);
  return promise.finally(() => worker.terminate());
}
