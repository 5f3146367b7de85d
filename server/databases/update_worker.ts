// Web Worker entry of the updates a running server makes: a scheduled
// update-databases run, or (scaled out) fetching the versions of a release
// DATA_DIR lacks. Their checks read a whole new copy of the data, on a
// thread whose memory goes back to the system when it ends, not into the
// server's heap, and which does not hold up its lookups.
/// <reference lib="deno.worker" />
import { BUNDLED_PACKAGES } from "./bundled.ts";
import type { ThreadTask } from "./update_thread.ts";
import { ensureCopy, updateDatabases } from "./update.ts";

self.onmessage = async (event: MessageEvent<ThreadTask>) => {
  const task = event.data;
  try {
    if (task.kind === "update") {
      self.postMessage(await updateDatabases(task.options));
      return;
    }
    for (const pkg of BUNDLED_PACKAGES) {
      const version = task.versions[pkg.name];
      if (version) {
        await ensureCopy(task.dataDir, task.registryUrl, pkg, version);
      }
    }
    self.postMessage({ ok: true });
  } catch (error) {
    self.postMessage({
      at: new Date().toISOString(),
      ok: false,
      message: (task.kind === "update" ? "the update stopped: " : "") +
        (error as Error).message,
    });
  }
};
