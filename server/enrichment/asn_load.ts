// Reads the ASN tables on a thread of its own: parsing the CSVs is a second
// or so of work that must not stall the HTTP thread while a running server
// switches to new data, and its short-lived objects die with the thread.
// The tables come back in shared memory (asn_table.ts), so nothing is
// copied but the organisations' names.
import type { AsnTableData } from "./asn_table.ts";
import { runOnThread } from "../one_shot_thread.ts";

/** loadAsnTable(paths) on a worker. */
export function loadAsnTableOnThread(paths: string[]): Promise<AsnTableData> {
  return runOnThread(
    new URL("./asn_load_worker.ts", import.meta.url),
    "asn-tables",
    paths,
    "reading the ASN tables",
  );
}
