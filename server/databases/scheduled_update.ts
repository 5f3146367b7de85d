// DATABASE_UPDATES=weekly: update-databases from the server itself, on a
// thread of its own (update_worker.ts), then the running server takes the
// new data up (data_watch.ts). Off by default.
import type { DataUpdateOutcome } from "../../shared/wire.ts";
import type { Config } from "../config.ts";
import { logError } from "../log.ts";
import type { DataWatch } from "./data_watch.ts";

function updateOnThread(config: Config): Promise<DataUpdateOutcome> {
  const worker = new Worker(
    new URL("./update_worker.ts", import.meta.url).href,
    { type: "module", name: "update-databases" },
  );
  const { promise, resolve } = Promise.withResolvers<DataUpdateOutcome>();
  worker.onmessage = (event: MessageEvent<DataUpdateOutcome>) =>
    resolve(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    resolve({
      at: new Date().toISOString(),
      ok: false,
      message: `the update stopped: ${event.message}`,
    });
  };
  worker.postMessage({
    dataDir: config.dataDir,
    registryUrl: config.databaseRegistryUrl,
    skip: [
      ...(config.geoDb ? ["geolocation" as const] : []),
      ...(config.asnDb ? ["asn" as const] : []),
    ],
  });
  return promise.finally(() => worker.terminate());
}

/** Mondays at 04:30 UTC, when DATABASE_UPDATES is weekly. */
export function scheduleDataUpdates(
  config: Config,
  watch: DataWatch | null,
): void {
  if (config.databaseUpdates !== "weekly") return;
  Deno.cron("update databases", "30 4 * * 1", async () => {
    const outcome = await updateOnThread(config);
    if (outcome.ok) console.log(`data update: ${outcome.message}`);
    else logError(`data update refused: ${outcome.message}`);
    await watch?.check();
  });
}
