// Web Worker entry: opens one MMDB file and posts it back (loadGeoDatabases
// says why on a thread of its own).
/// <reference lib="deno.worker" />
import { type MmdbFile, openCheckedMmdb } from "./mmdb_database.ts";
import { answerOnThread } from "../one_shot_thread.ts";

export interface MmdbOpenInput {
  path: string;
  verified: boolean;
}

answerOnThread(({ path, verified }: MmdbOpenInput): Promise<MmdbFile> =>
  openCheckedMmdb(path, verified)
);
