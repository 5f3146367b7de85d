// `deno task update-databases` / `ip-enrich update-databases`: one update
// run, its outcome printed (and kept in DATA_DIR/databases/status.json);
// exit code 1 when any package's update was refused. With DATABASE_URL the
// versions it switched to are published as the deployment's release, which
// every process then takes up (release.ts).
import type { Config } from "../config.ts";
import { PgDataRelease } from "../storage/pg/pg_data_release.ts";
import { PgStore } from "../storage/pg/pg_store.ts";
import { packagesInUse } from "./installed.ts";
import { updateDatabases } from "./update.ts";

export async function updateCommand(
  config: Config,
  databaseUrl: string | null,
): Promise<number> {
  const skip = [
    ...(config.geoDb ? ["geolocation" as const] : []),
    ...(config.asnDb ? ["asn" as const] : []),
  ];
  const outcome = await updateDatabases({
    dataDir: config.dataDir,
    registryUrl: config.databaseRegistryUrl,
    skip,
  });
  if (databaseUrl) {
    const store = await PgStore.open(databaseUrl, 1);
    try {
      const release = await new PgDataRelease(store.sql).publish(
        packagesInUse(config),
      );
      console.log(
        "every process now reads " +
          Object.entries(release).map(([name, v]) => `${name} ${v}`)
            .join(", "),
      );
    } finally {
      await store.close();
    }
  }
  if (outcome.ok) {
    console.log(outcome.message);
    return 0;
  }
  console.error(`error: ${outcome.message}`);
  return 1;
}
