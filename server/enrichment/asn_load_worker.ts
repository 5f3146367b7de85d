// Web Worker entry: reads the ASN tables and posts them back (asn_load.ts
// says why on a thread of its own).
/// <reference lib="deno.worker" />
import { loadAsnTable } from "./asn_table.ts";
import { answerOnThread } from "../one_shot_thread.ts";

answerOnThread(loadAsnTable);
