// Web Worker entry: classifies every network of the ASN tables and posts
// the decisions back (network_table.ts says why once per process).
/// <reference lib="deno.worker" />
import { classifyTable } from "./network_table.ts";
import { answerOnThread } from "../one_shot_thread.ts";

answerOnThread(classifyTable);
