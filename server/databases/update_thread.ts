// Runs update-databases, or the fetch of a release's missing versions, on a
// thread of its own (update_worker.ts says why).
import type { DataUpdateOutcome } from "../../shared/wire.ts";
import type { Config } from "../config.ts";
import { runOnThread } from "../one_shot_thread.ts";
import { BUNDLED_PACKAGES, type PackageVersions } from "./bundled.ts";
import { hasCopy, type UpdateOptions } from "./update.ts";

export type ThreadTask =
  | { kind: "update"; options: Omit<UpdateOptions, "log"> }
  | {
    kind: "fetch";
    dataDir: string;
    registryUrl: string;
    versions: PackageVersions;
  };

/** The task's outcome; a thread that stopped is an update that stopped. */
function onThread(task: ThreadTask): Promise<DataUpdateOutcome> {
  return runOnThread<ThreadTask, DataUpdateOutcome>(
    new URL("./update_worker.ts", import.meta.url),
    "update-databases",
    task,
    null,
  ).catch((error) => ({
    at: new Date().toISOString(),
    ok: false,
    message: `the update stopped: ${error.message}`,
  }));
}

/** One update-databases run with the server's settings. */
export function updateOnThread(config: Config): Promise<DataUpdateOutcome> {
  return onThread({
    kind: "update",
    options: {
      dataDir: config.dataDir,
      registryUrl: config.databaseRegistryUrl,
      skip: [
        ...(config.geoDb ? ["geolocation" as const] : []),
        ...(config.asnDb ? ["asn" as const] : []),
      ],
    },
  });
}

/** Fetches (and checks) the versions DATA_DIR lacks; throws why not. */
export async function fetchOnThread(
  settings: Pick<Config, "dataDir" | "databaseRegistryUrl">,
  versions: PackageVersions,
): Promise<void> {
  let missing = false;
  for (const pkg of BUNDLED_PACKAGES) {
    const version = versions[pkg.name];
    missing ||= !!version && !await hasCopy(settings.dataDir, pkg, version);
  }
  if (!missing) return;
  const outcome = await onThread({
    kind: "fetch",
    dataDir: settings.dataDir,
    registryUrl: settings.databaseRegistryUrl,
    versions,
  });
  if (!outcome.ok) throw new Error(outcome.message);
}
