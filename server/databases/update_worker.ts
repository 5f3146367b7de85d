// Web Worker entry of the updates a running server makes: a scheduled
// update-databases run, or (scaled out) fetching the versions of a release
// DATA_DIR lacks. Their checks read a whole new copy of the data, on a
// thread whose memory goes back to the system when it ends, not into the
// server's heap, and which does not hold up its lookups.
/// <reference lib="deno.worker" />
import type { DataUpdateOutcome } from "../../shared/wire.ts";
import { answerOnThread } from "../one_shot_thread.ts";
import { BUNDLED_PACKAGES } from "./bundled.ts";
import type { ThreadTask } from "./update_thread.ts";
import { ensureCopy, updateDatabases } from "./update.ts";

answerOnThread(async (task: ThreadTask): Promise<DataUpdateOutcome> => {
  // An update's own failure is its outcome; thrown, it is the thread's.
  if (task.kind === "update") return await updateDatabases(task.options);
  try {
    for (const pkg of BUNDLED_PACKAGES) {
      const version = task.versions[pkg.name];
      if (version) {
        await ensureCopy(task.dataDir, task.registryUrl, pkg, version);
      }
    }
    return { at: new Date().toISOString(), ok: true, message: "" };
  } catch (error) {
    return {
      at: new Date().toISOString(),
      ok: false,
      message: (error as Error).message,
    };
  }
});
