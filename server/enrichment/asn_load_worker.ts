// Web Worker entry: reads the ASN tables and posts them back, or the
// error's message (asn_load.ts says why on a thread of its own).
/// <reference lib="deno.worker" />
import { loadAsnTable } from "./asn_table.ts";
import type { AsnLoadOutput } from "./asn_load.ts";

const post = (message: AsnLoadOutput) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<string[]>) => {
  try {
    post({ table: await loadAsnTable(event.data) });
  } catch (error) {
    post({ error: (error as Error).message });
  }
};
