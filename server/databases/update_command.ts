// `deno task update-databases` / `ip-enrich update-databases`: one update
// run, its outcome printed (and kept in DATA_DIR/databases/status.json);
// exit code 1 when any package's update was refused.
import type { Config } from "../config.ts";
import { updateDatabases } from "./update.ts";

export async function updateCommand(config: Config): Promise<number> {
  const skip = [
    ...(config.geoDb ? ["geolocation" as const] : []),
    ...(config.asnDb ? ["asn" as const] : []),
  ];
  const outcome = await updateDatabases({
    dataDir: config.dataDir,
    registryUrl: config.databaseRegistryUrl,
    skip,
  });
  if (outcome.ok) {
    console.log(outcome.message);
    return 0;
  }
  console.error(`error: ${outcome.message}`);
  return 1;
}
